#!/usr/bin/env python3
"""How much a device would gain by refitting the launch model on its own past: an offline
experiment of issue 28 (docs/experiments.md), not part of the package.

For each log, its rows (`fetchpredict features`) are scored three ways:
- LOLO: the trees fitted without the log (`fit-launch-model.py --lolo-out FOLDER`);
- refitted: the same trees, plus ROUNDS small trees fitted every EVERY days on the device's own
  rows before that day, by Newton boosting with the LOLO trees' log-odds as the offset, so that
  nothing reads the future;
- in-sample: the trees fitted on every log, this one included (the future of the same days too).
Each is log-loss / AUC / AUC within each app's day (the moments of a day the plan chooses among,
weighted by their cold launches), on the rows from day EVERY on.

    scripts/try-device-refits.py --lolo FOLDER --all ALL.json --rounds 20 --depth 3 --rate 0.1 \\
        --leaf 200 --every 7 xiaomi=rows-xiaomi.csv lyon=rows-lyon.csv
"""

import argparse
import csv
import json

import numpy as np
from sklearn.metrics import log_loss, roc_auc_score
from sklearn.tree import DecisionTreeRegressor


def predict_json(model, x):
    """The chance of each row under the trees' JSON (as fit-launch-model.py's predict_json)."""
    raw = np.full(len(x), model["baseline"])
    for tree in model["trees"]:
        feature, threshold = np.array(tree["feature"]), np.array(tree["threshold"])
        threshold[threshold >= np.finfo(np.float64).max] = np.inf
        left, right, missing = np.array(tree["left"]), np.array(tree["right"]), np.array(tree["missingLeft"])
        node = np.zeros(len(x), dtype=np.int64)
        while (feature[node] >= 0).any():
            rows = np.nonzero(feature[node] >= 0)[0]
            value = x[rows, feature[node[rows]]]
            goes_left = np.where(np.isnan(value), missing[node[rows]], value <= threshold[node[rows]])
            node[rows] = np.where(goes_left, left[node[rows]], right[node[rows]])
        raw += np.array(tree["value"])[node]
    return 1 / (1 + np.exp(-raw))


def read(path):
    with open(path, newline="") as handle:
        reader = csv.reader(handle)
        next(reader)
        data = list(reader)
    apps = np.array([row[1] for row in data])
    days = np.array([row[2][:10] for row in data])
    x = np.array([[float(v) for v in row[3:-1]] for row in data])
    y = np.array([int(row[-1]) for row in data])
    return apps, days, x, y


def within_day_auc(apps, days, y, p):
    groups = {}
    for index, key in enumerate(zip(apps, days)):
        groups.setdefault(key, []).append(index)
    total = weight = 0.0
    for rows in groups.values():
        rows = np.array(rows)
        if 0 < y[rows].sum() < len(rows):
            total += roc_auc_score(y[rows], p[rows]) * y[rows].sum()
            weight += y[rows].sum()
    return total / weight


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("logs", nargs="+", help="NAME=PATH of each log's rows")
    parser.add_argument("--lolo", required=True, help="the folder of without-NAME.json")
    parser.add_argument("--all", required=True, help="the trees fitted on every log")
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--depth", type=int, default=3)
    parser.add_argument("--rate", type=float, default=0.1)
    parser.add_argument("--leaf", type=int, default=200)
    parser.add_argument("--every", type=int, default=7)
    args = parser.parse_args()
    with open(args.all) as handle:
        everyone = json.load(handle)
    for item in args.logs:
        name, _, path = item.partition("=")
        apps, days, x, y = read(path)
        with open("%s/without-%s.json" % (args.lolo, name)) as handle:
            lolo = predict_json(json.load(handle), x)
        inside = predict_json(everyone, x)
        offset = np.log(lolo / (1 - lolo))
        day_index = {day: i for i, day in enumerate(sorted(set(days)))}
        day = np.array([day_index[d] for d in days])
        known = np.where(np.isnan(x), -1e9, x)
        refitted = lolo.copy()
        for start in range(args.every, len(day_index), args.every):
            past, scored = day < start, (day >= start) & (day < start + args.every)
            fitted, scoring = offset[past].copy(), offset[scored].copy()
            for _ in range(args.rounds):
                p = 1 / (1 + np.exp(-fitted))
                hessian = np.maximum(p * (1 - p), 1e-6)
                tree = DecisionTreeRegressor(max_depth=args.depth, min_samples_leaf=args.leaf)
                tree.fit(known[past], (y[past] - p) / hessian, sample_weight=hessian)
                fitted += args.rate * tree.predict(known[past])
                scoring += args.rate * tree.predict(known[scored])
            refitted[scored] = 1 / (1 + np.exp(-scoring))
        rows = day >= args.every
        if not rows.any():
            print("| %s | fewer than %d days of rows |" % (name, args.every + 1), flush=True)
            continue

        def cell(p):
            return "%.4f / %.3f / %.3f" % (
                log_loss(y[rows], np.clip(p[rows], 1e-7, 1 - 1e-7)), roc_auc_score(y[rows], p[rows]),
                within_day_auc(apps[rows], days[rows], y[rows], p[rows]))

        print("| %s | %s | %s | %s |" % (name, cell(lolo), cell(refitted), cell(inside)), flush=True)


if __name__ == "__main__":
    main()
