"""The pandas peer of `node dist/bench.js first-table` (issue 15): what a notebook does to get the
first leave-one-out table of a run folder of Credit Lens JSONL traces.

Every trace file is read with pandas.read_json(lines=True); each episode's logged counterfactuals
("remove one agent", with the team reward without it) give that agent's LOO credit, reward minus
counterfactual reward; the table is the mean credit per training step x agent, then per agent.

Usage: python3 bench/peers/pandas_loo.py <run-dir>
"""

import glob
import os
import sys

import pandas as pd


def trace_files(root):
    files = glob.glob(os.path.join(root, "**", "*.jsonl"), recursive=True)
    return sorted(f for f in files if os.path.getsize(f) > 0)


def loo_rows(episodes):
    """One row per (episode, agent) with a logged single-agent removal: step, agent, credit."""
    cf = episodes[["step", "reward", "counterfactuals"]].explode("counterfactuals", ignore_index=True)
    cf = cf.dropna(subset=["counterfactuals"])
    logged = cf["counterfactuals"]
    cf = cf.assign(
        intervention=logged.str["intervention"],
        agents=logged.str["agents"],
        without=logged.str["reward"],
    )
    cf = cf[(cf["intervention"] == "remove") & (cf["agents"].str.len() == 1)]
    return pd.DataFrame(
        {"step": cf["step"], "agent": cf["agents"].str[0], "credit": cf["reward"] - cf["without"]}
    )


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "."
    episodes = pd.concat([pd.read_json(f, lines=True) for f in trace_files(root)], ignore_index=True)
    rows = loo_rows(episodes)
    table = rows.pivot_table(index="step", columns="agent", values="credit", aggfunc="mean")
    print(f"{len(episodes)} episodes, {len(rows)} agent credits, {len(table)} steps")
    print(table.head(5).to_string())
    print(rows.groupby("agent")["credit"].agg(["count", "mean"]).to_string())


if __name__ == "__main__":
    main()
