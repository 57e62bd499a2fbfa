"""Expert iteration (``mancala train VARIANT --algo az``): a policy-value network fitted to the
moves an alpha-beta teacher values, in generations of games the network itself plays."""
