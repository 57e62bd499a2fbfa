"""The documentation's measured tables are rendered from the results files, targets included."""

import importlib.util
import json
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[2]


@pytest.fixture
def tables():
    spec = importlib.util.spec_from_file_location(
        "results_tables", ROOT / "docs" / "_ext" / "results_tables.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_page_renders_from_the_committed_files(tables):
    pages = tables.pages()
    assert "strength.md" in pages
    assert all(text.strip() for text in pages.values())


def test_strength_page_says_which_targets_are_met_and_by_how_much_one_is_missed(
    tables, tmp_path, monkeypatch
):
    monkeypatch.setattr(tables, "ROOT", tmp_path)
    monkeypatch.setattr(tables, "RESULTS", tmp_path)
    record = {
        "network": "ayoayo",
        "variant": "ayoayo",
        "date": "2026-11-26",
        "command": "python benchmarks/az_strength.py --network ayoayo --variant ayoayo",
        "machine": "x86_64, cpu",
        "seed": 11,
        "workers": 2,
        "seconds": 10.0,
        "search_openings": "shipped suite",
        "no_search": {"alphabeta:depth=4": [0.5, 0.45, 0.55, 400]},
        "search": {
            "learner": "az:ayoayo,time=0.1",
            "scores": {"alphabeta:time=0.1": [0.5, 0.43, 0.57, 200]},
        },
    }
    (tmp_path / "az_ayoayo.json").write_text(json.dumps(record))
    curve = [
        {"generation": 10, "positions": 50_000, "seconds": 1800.0},  # from before machines
        {"generation": 20, "positions": 100_000, "seconds": 3600.0, "machine": "x86_64, 2 cores"},
        {"generation": 30, "positions": 150_000, "seconds": 5400.0, "machine": "x86_64, 2 cores"},
        {"generation": 40, "positions": 200_000, "seconds": 7200.0, "machine": "arm64, 8 cores"},
        {"generation": 50, "positions": 250_000, "seconds": 9000.0, "machine": "x86_64, 2 cores"},
    ]
    (tmp_path / "az_ayoayo_training.jsonl").write_text("".join(json.dumps(r) + "\n" for r in curve))
    page = tables.strength()
    assert "## `az:ayoayo` (ayoayo)" in page
    assert "date: 2026-11-26" in page
    assert "target 0.60: missed by 0.100" in page
    assert page.count("target 0.60") == 1  # the search's: the no-search target is Oware's alone
    assert "250,000 labelled positions in 50 generations, 150 minutes" in page
    assert "were added later" not in page
    added = {
        "opponents": ["alphabeta:depth=5", "alphabeta:depth=6"],
        "date": "2026-11-29",
        "machine": "AMD EPYC, 2 cores",
        "command": "python benchmarks/az_strength.py --depths 6 --add-missing",
        "seed": 11,
        "workers": 1,
        "seconds": 99.5,
    }
    (tmp_path / "az_ayoayo.json").write_text(json.dumps({**record, "added": [added]}))
    page = tables.strength()
    assert (
        "The rows against `alphabeta:depth=5`, `alphabeta:depth=6` were added later (date: "
        "2026-11-29; machine: AMD EPYC, 2 cores; command: `python benchmarks/az_strength.py "
        "--depths 6 --add-missing`; seed 11, 1 worker, 99.5 s)." in page
    )
    machines = "not recorded in the file; then x86_64, 2 cores; then arm64, 8 cores; then x86_64"
    assert f"machine: {machines}, 2 cores." in page
    assert "not shipped" in page  # no agents/networks/ayoayo.npz under tmp_path
    not_measured = page.split("## Not measured yet")[1]
    assert "`oware`" in not_measured and "`ayoayo`" not in not_measured
    assert "`az:kpo`" not in page  # Oware's network, which plays Kpo, was not measured here
    (tmp_path / "az_oware.json").write_text(json.dumps({**record, "network": "oware"}))
    page = tables.strength()
    assert "- `az:kpo` is `az:oware`: Kpo plays Oware's rules" in page
    assert "`kpo`" not in page.split("## Not measured yet")[1]


def write_strength(folder: Path, variant: str, no_search: dict) -> None:
    """A strength file of `variant`'s network with the `no_search` rows and no search row."""
    strength = {
        "network": variant,
        "variant": variant,
        "seed": 11,
        "workers": 2,
        "seconds": 10.0,
        "no_search": no_search,
        "search": {"learner": f"az:{variant},time=0.1", "scores": {}},
    }
    (folder / f"az_{variant}.json").write_text(json.dumps(strength))


def test_a_network_trained_in_two_stages_sums_them_and_lists_each(tables, tmp_path, monkeypatch):
    monkeypatch.setattr(tables, "ROOT", tmp_path)
    monkeypatch.setattr(tables, "RESULTS", tmp_path)
    write_strength(tmp_path, "oware", {"alphabeta:depth=4": [0.6, 0.55, 0.65, 400]})

    def stage(name: str, rows: list[tuple[int, int, float]], machine: str) -> None:
        lines = [
            {"generation": g, "positions": p, "seconds": s, "machine": machine,
             "scores": {"alphabeta:depth=4": [0.4, 0.3, 0.5]}}
            for g, p, s in rows
        ]  # fmt: skip
        (tmp_path / name).write_text("".join(json.dumps(line) + "\n" for line in lines))

    stage("az_oware_training.jsonl", [(10, 100_000, 600.0), (20, 200_000, 1200.0)], "AMD EPYC")
    page = tables.strength()
    assert "200,000 labelled positions in 20 generations, 20 minutes of training time" in page
    assert "stages" not in page
    stage("az_oware_training_continued.jsonl", [(10, 90_000, 1800.0)], "Intel Xeon")
    page = tables.strength()
    assert (
        "(`az_oware_training.jsonl`, `az_oware_training_continued.jsonl`, 2 runs' evaluations): "
        "290,000 labelled positions in 30 generations in 2 stages, 50 minutes of training time; "
        "machine: AMD EPYC; then Intel Xeon." in page
    )
    assert "target 0.60: met" in page
    table = tables.az_training()
    assert "stage 1's evaluations" in table and "stage 2's evaluations" in table
    assert "machine: Intel Xeon; command" in table  # each stage's machine, from its rows
    assert "| 2 | 10 | 90,000 | 1800.0 | 0.400 |" in table


def accuracy_scores(keeps: float, lost: float, **provenance: str) -> dict:
    pooled = {"seeds": None, "positions": 26, "keeps_value": keeps, "keeps_low": keeps - 0.1,
              "keeps_high": keeps + 0.05, "seeds_lost": lost, "lost_low": lost / 2,
              "lost_high": lost * 2}  # fmt: skip
    return {"rows": [{**pooled, "seeds": 3}, pooled], "seconds": 1.0, **provenance}


def test_a_networks_endgame_accuracy_joins_its_strength_section(tables, tmp_path, monkeypatch):
    monkeypatch.setattr(tables, "ROOT", tmp_path)
    monkeypatch.setattr(tables, "RESULTS", tmp_path)
    write_strength(tmp_path, "ayoayo", {"random": [0.9, 0.8, 0.95, 100]})
    before = {"date": "2026-11-26", "machine": "x86_64", "command": "python a.py --agents random",
              "database": "seed counts 0 to 15, default options"}  # fmt: skip
    accuracy = {
        "variant": "ayoayo",
        "max_seeds": 15,
        "positions": 26,
        "seed": 0,
        "agents": {"random": accuracy_scores(0.5, 1.2, **before)},
    }
    path = tmp_path / "endgame_accuracy_ayoayo.json"
    path.write_text(json.dumps(accuracy))
    assert "scored by the endgame database" not in tables.strength()  # no row of the network

    later = {**before, "date": "2026-11-29", "command": "python a.py --agents az:ayoayo"}
    accuracy["agents"]["az:ayoayo"] = accuracy_scores(0.75, 0.4, **later)
    path.write_text(json.dumps(accuracy))
    page = tables.strength()
    section = page.split("Its moves scored by the endgame database:")[1]
    assert "26 positions of 3 to 15 seeds (seed 0)" in section
    assert (
        "- `random` (1.0 s): date: 2026-11-26; machine: x86_64; command: `python a.py --agents "
        "random`" in section
    )
    assert (
        "- `az:ayoayo` (1.0 s): date: 2026-11-29; machine: x86_64; command: `python a.py --agents "
        "az:ayoayo`; a database of seed counts 0 to 15, default options." in section
    )
    assert "Each agent's moves in 26 positions:" in section  # once, not on every row
    assert "| `az:ayoayo` | 0.750 (0.650–0.800) | 0.400 (0.200–0.800) |" in section
    assert "| `random` | 0.500 (0.400–0.550) |" in section
    assert tables.endgame_accuracy_ayoayo() in section  # the endgames page's table, the same

    del accuracy["agents"]["random"]["database"]  # a record without it renders as unknown
    path.write_text(json.dumps(accuracy))
    assert "`python a.py --agents random`; database: not recorded in the file." in tables.strength()


def test_an_accuracy_table_names_each_agents_positions_where_they_differ(tables):
    rows = {"a": accuracy_scores(0.5, 1.0)["rows"][-1], "b": accuracy_scores(0.6, 0.5)["rows"][-1]}
    rows["b"] = {**rows["b"], "positions": 30}
    table = tables._accuracy_table(rows)
    assert table[0] == "| agent | positions | keeps the value (95%) | seeds lost a move (95%) |"
    assert table[2].startswith("| `a` | 26 | 0.500") and table[3].startswith("| `b` | 30 | 0.600")


def test_metrics_page_renders_every_rule_set_of_the_results_file(tables):
    record = json.loads((ROOT / "benchmarks" / "results" / "metrics.json").read_text())
    page = tables.metrics()
    assert "benchmarks/results/metrics.json" in page
    assert record["command"] in page
    for variant in record["variants"]:
        assert f"| {variant} | `random` |" in page


def test_the_self_play_recipes_table_puts_each_recipe_beside_the_teacher(
    tables, tmp_path, monkeypatch
):
    monkeypatch.setattr(tables, "ROOT", tmp_path)
    monkeypatch.setattr(tables, "RESULTS", tmp_path)

    def evaluation(generation: int, seconds: float, score: float, machine: str = "") -> dict:
        scores = {"alphabeta:depth=1": [score, 0.0, 1.0], "alphabeta:depth=4": [score / 2, 0, 1]}
        row = {"generation": generation, "positions": generation * 10_000, "seconds": seconds,
               "scores": scores}  # fmt: skip
        return {**row, "machine": machine} if machine else row

    gumbel = [evaluation(40, 300.0, 0.8), evaluation(90, 1100.0, 0.9)]
    record = {
        "date": "2026-12-04",
        "machine": "AMD EPYC, 2 cores",
        "command": "python benchmarks/self_play_recipes.py",
        "config": "train/configs/az/self_play/oware_from_scratch.toml",
        "seed": 0,
        "minutes": 20.0,
        "recipes": [
            {"search": "gumbel", "evaluations": gumbel},
            {"search": "puct", "evaluations": [evaluation(40, 310.0, 0.7)]},
        ],
        "teacher": {
            "file": "benchmarks/results/az_oware_training.jsonl",
            "evaluations": [evaluation(10, 518.4, 0.6, "Intel Xeon")],
        },
    }
    (tmp_path / "az_oware_self_play_recipes.json").write_text(json.dumps(record))
    table = tables.self_play_recipes()
    assert "| depth 1 | depth 4 |" in table
    assert '| self-play, `search = "gumbel"` | 40 | 400,000 | 300.0 | 0.800 | 0.400 |' in table
    assert "|  | 90 | 900,000 | 1100.0 | 0.900 | 0.450 |" in table
    assert '| self-play, `search = "puct"` | 40 | 400,000 | 310.0 | 0.700 | 0.350 |' in table
    assert "| teacher, alpha-beta depth 8 | 10 | 100,000 | 518.4 | 0.600 | 0.300 |" in table
    assert (
        "machine: Intel Xeon)" in table
        and "command: `python benchmarks/self_play_recipes.py`" in table
    )


def test_the_threads_table_gives_each_way_of_counting_quiet_and_beside_a_busy_core(
    tables, tmp_path, monkeypatch
):
    monkeypatch.setattr(tables, "ROOT", tmp_path)
    monkeypatch.setattr(tables, "RESULTS", tmp_path)
    speeds = {"one thread": 1_000_000, "the pool (2 threads)": 80_000, "picked": 990_000}
    record = {
        "variant": "oware",
        "date": "2026-12-04",
        "machine": "AMD EPYC, 2 cores",
        "command": "python benchmarks/threads_under_load.py",
        "seconds_each": 2.0,
        "rows": [{"rows": 4096, "busy_core": True, "games_per_second": speeds}],
    }
    (tmp_path / "threads.json").write_text(json.dumps(record))
    table = tables.threads()
    assert "| games a call | another process spinning on a core | one thread |" in table
    assert "| 4,096 | yes | 1,000,000 | 80,000 | 990,000 |" in table


def test_the_baselines_table_puts_maskable_ppo_beside_the_shipped_policy(
    tables, tmp_path, monkeypatch
):
    monkeypatch.setattr(tables, "ROOT", tmp_path)
    monkeypatch.setattr(tables, "RESULTS", tmp_path)

    def record(algorithm: str, timesteps: int, score: float) -> dict:
        return {
            "variant": "oware",
            "date": "2026-12-04",
            "machine": "AMD EPYC, 2 cores",
            "command": "python benchmarks/ppo_strength.py",
            "training": {"algorithm": algorithm, "timesteps": timesteps, "minutes": 30.0},
            "scores": {"greedy": [score, score - 0.1, score + 0.1, 100]},
        }

    (tmp_path / "batched_ppo_oware_network.json").write_text(
        json.dumps(record("batched-ppo", 9_700_000, 0.98))
    )
    (tmp_path / "maskable_ppo_oware_network.json").write_text(
        json.dumps(record("ppo", 4_200_000, 0.7))
    )
    table = tables.baselines()
    assert (
        "| oware | `--algo batched-ppo` | `ppo:oware` | 9.7M in 30.0 min | not measured |" in table
    )
    assert (
        "| oware | `--algo ppo` (MaskablePPO) | not shipped | 4.2M in 30.0 min | not measured "
        "| 0.700 (0.600–0.800) |" in table
    )
    assert "`maskable_ppo_oware_network.json`" in table


def test_the_limits_summary_names_the_flags_the_loops_were_built_with(
    tables, tmp_path, monkeypatch
):
    monkeypatch.setattr(tables, "ROOT", tmp_path)
    monkeypatch.setattr(tables, "RESULTS", tmp_path)
    row = {"engine_1_core": 8, "loop": "oware", "loop_moves_per_s": 10, "ratio": 0.8}
    record = {
        "date": "2026-12-04",
        "machine": "AMD EPYC, 2 cores",
        "command": "mancala bench",
        "load_average_before_and_after": [0.5, 0.6],
        "rounds": 2,
        "runs": [{"oware": row}, {"oware": {**row, "loop_flags": "cc -O3 -march=native"}}],
        "summary": {
            "oware": {
                "loop": "oware",
                "ratio_median": 0.8,
                "ratio_lowest": 0.8,
                "ratio_highest": 0.8,
                "target": 0.6,
            }  # fmt: skip
        },
    }
    (tmp_path / "limits.json").write_text(json.dumps(record))
    assert "the loops built with `cc -O3 -march=native`." in tables.limits_summary()
    record["runs"] = [{"oware": row}]
    (tmp_path / "limits.json").write_text(json.dumps(record))
    assert "the loops built with flags not recorded." in tables.limits_summary()
