"""`import mancala_env` is light: it registers every rule set and loads the game layer, and
nothing an environment, a picture, a model or the command line needs until it is used."""

import subprocess
import sys

HEAVY = (
    "PIL",
    "matplotlib",
    "torch",
    "stable_baselines3",
    "tqdm",
    "mancala_env.env",
    "mancala_env.gym_env",
    "mancala_env.vec_env",
    "mancala_env.gym_vector",
    "mancala_env.learner_batch",
    "mancala_env.render",
    "mancala_env.cli",
    "mancala_env.bench",
    "mancala_env.agents",
    "mancala_env.train",
)


def loaded_after(code: str) -> set[str]:
    """The HEAVY modules a fresh interpreter has loaded after running `code`."""
    probe = f"{code}\nimport sys\nprint(' '.join(m for m in {HEAVY!r} if m in sys.modules))"
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    )
    return set(result.stdout.split())


def test_the_import_registers_without_loading_environments_pictures_or_models():
    assert loaded_after("import mancala_env") == set()
    code = "import mancala_env, pettingzoo, gymnasium\n"
    code += "assert 'mancala/oware-v1' in pettingzoo.aec_registry\n"
    code += "assert 'mancala_env/Oware-v1' in gymnasium.registry"
    assert loaded_after(code) == set()


def test_an_environment_is_loaded_when_it_is_made():
    code = "import mancala_env, pettingzoo\npettingzoo.make('aec', 'mancala/oware')"
    assert {"mancala_env.env", "mancala_env.render"} <= loaded_after(code)
    assert "torch" not in loaded_after(code)


def test_agents_use_the_game_layer_without_the_environments():
    code = "from mancala_env.agents import load_agent\nload_agent('alphabeta:depth=2')"
    assert loaded_after(code) & {"mancala_env.env", "PIL", "torch", "mancala_env.train"} == set()


def test_the_command_line_s_help_loads_nothing_a_command_uses():
    """``mancala --help`` lists every command and adds to `import mancala_env` only the command
    line's own modules and its argument types: no kernels, agents, tournaments or training."""
    code = (
        "import sys\nimport mancala_env\nbefore = set(sys.modules)\n"
        "from mancala_env.cli import main\nassert main(['--help']) == 0\n"
        "print(' '.join(sorted(set(sys.modules) - before)))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert "tournament" in done.stdout  # the help, listing the commands
    added = set(done.stdout.splitlines()[-1].split())
    assert added & set(HEAVY) == {"mancala_env.cli"}
    ours = {m for m in added if m.startswith("mancala_env")}
    assert {"mancala_env.cli.tournament", "mancala_env.cli.train"} <= ours
    assert {m for m in ours if not m.startswith("mancala_env.cli")} == {"mancala_env.arguments"}
