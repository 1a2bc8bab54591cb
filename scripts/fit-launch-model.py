#!/usr/bin/env python3
"""The offline fit of the launch model (issue 28): P(a cold launch of app A in (T+1, T+30] min | features at T).

Reads the rows that `fetchpredict features` writes for each log, fits a logistic regression with a
few interactions and gradient-boosted trees, and reports, per log, leave-one-log-out figures (fitted
on the other logs, scored on this one) beside in-sample ones (fitted on all logs), and a baseline:
a logistic fit of the app's profile alone (log of profileNext30).

    fetchpredict features LOG --time-zone ZONE --out /tmp/rows-NAME.csv     # for each log
    scripts/fit-launch-model.py NAME=/tmp/rows-NAME.csv ... [--model trees|logistic] [--out model.json]
    scripts/fit-launch-model.py --predict model.json ROWS.csv [--out chances.csv]
    scripts/fit-launch-model.py NAME=ROWS ... --model trees --prior-version N --swift-out LaunchPrior.swift

Writes the model fitted on all the logs, as JSON, to --out: the logistic model's transforms, fills
of unknown values, means, scales and coefficients; or the trees (feature, threshold, left, right,
missingLeft, value per node: a row goes left when its value is <= the threshold, and when it is
unknown (NaN) where missingLeft; the score is the baseline plus the leaves' values, through the
logistic function).

With --swift-out, also writes the trees fitted on all the logs as the package's population prior:
a Swift source that holds the JSON (with its version and the logs' names and rows) as a string, so
that the prior travels inside the `fetchpredict` binary. Sources/FetchPredictorCore/Learning/
LaunchPrior.swift is written this way.

With --predict, fits nothing: writes the chance of each row of ROWS.csv under the model's JSON, by
`predict_json` (numpy alone), one a line with 17 significant digits: the reference that the
Swift inference (`LaunchModel`) is held to.

With --lolo-out FOLDER, also writes each model fitted without one log as FOLDER/without-NAME.json,
so that `fetchpredict evaluate --forecaster trees=FILE` can plan each log with a model that never saw it.
--tree-settings overrides the trees' settings (scikit-learn's names) for an experiment.

Needs numpy and scikit-learn (pip install scikit-learn).
"""

import argparse
import csv
import json
import os
import math
import sys
import time

import numpy as np
from sklearn.ensemble import HistGradientBoostingClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import log_loss, roc_auc_score

# Features read through log1p in the logistic model: times, counts and rates with long tails.
LOG_FEATURES = {
    "profileRate", "profileNext30", "habitRate", "coldLaunchesPerDay", "minutesSinceLaunch",
    "minutesSinceColdLaunch", "coldLaunchesToday", "usualColdLaunchesByNow", "coldLaunchesLast24h",
    "coldLaunchesLast3h", "sameWindowYesterday", "sameWindowLastWeek", "minutesSinceAnyLaunch",
    "minutesSinceSessionStart", "launchesLast30Min", "minutesSinceUnlock", "minutesSinceNotification",
}
# Products of two transformed features that the logistic model adds: the profile against recency
# and the session, recency against the session.
INTERACTIONS = [
    ("profileNext30", "minutesSinceLaunch"),
    ("profileNext30", "minutesSinceAnyLaunch"),
    ("profileNext30", "followsLastApp"),
    ("profileNext30", "weekend"),
    ("minutesSinceLaunch", "minutesSinceAnyLaunch"),
    ("followsLastApp", "minutesSinceAnyLaunch"),
    ("coldLaunchesLast3h", "minutesSinceLaunch"),
]
TREE_SETTINGS = dict(
    max_iter=150, learning_rate=0.06, max_leaf_nodes=15, min_samples_leaf=200, l2_regularization=1.0,
    early_stopping=False, random_state=0)
# The share of negative rows (no cold launch in the window) the trees are fitted on, each weighted
# back by its inverse; None fits on every row. Set by --negatives.
NEGATIVES = None


def read_rows(path):
    """The feature names, the features (NaN where unknown) and the labels of a rows file."""
    with open(path, newline="") as handle:
        reader = csv.reader(handle)
        header = next(reader)
        names = header[3:-1]
        data = [row for row in reader]
    x = np.array([[float(v) for v in row[3:-1]] for row in data], dtype=np.float64)
    y = np.array([int(row[-1]) for row in data], dtype=np.int64)
    return names, x, y


class Logistic:
    """Logistic regression on transformed, standardised features with a few interactions."""

    def __init__(self, names, only=None):
        self.names = names
        self.only = only

    def transform(self, x):
        index = {name: i for i, name in enumerate(self.names)}
        transformed = {}
        for name in self.names:
            v = x[:, index[name]]
            if name in LOG_FEATURES:
                v = np.log1p(np.maximum(v, 0))
            transformed[name] = v
        return transformed

    def design(self, x):
        columns, labels = [], []
        index = {name: i for i, name in enumerate(self.names)}
        transformed = self.transform(x)
        # An unknown value (NaN: a log without unlocks or notifications) is the training rows' mean.
        for name, v in transformed.items():
            transformed[name] = np.where(np.isnan(v), self.fill[name], v)
        if self.only:
            return np.column_stack([transformed[name] for name in self.only]), list(self.only)
        for name in self.names:
            if name == "minuteOfDay":
                angle = x[:, index[name]] * 2 * math.pi / 1440
                columns += [np.sin(angle), np.cos(angle)]
                labels += ["sin(minuteOfDay)", "cos(minuteOfDay)"]
            else:
                columns.append(transformed[name])
                labels.append(("log1p(%s)" % name) if name in LOG_FEATURES else name)
        for a, b in INTERACTIONS:
            if a not in transformed or b not in transformed:
                continue
            columns.append(transformed[a] * transformed[b])
            labels.append("%s*%s" % (a, b))
        return np.column_stack(columns), labels

    def fit(self, x, y):
        self.fill = {}
        for name, v in self.transform(x).items():
            known = v[~np.isnan(v)]
            self.fill[name] = float(known.mean()) if len(known) else 0.0
        d, self.labels = self.design(x)
        self.mean = d.mean(axis=0)
        self.scale = d.std(axis=0)
        # A column that does not vary in the training rows (all unknown, filled) is left out:
        # its coefficient is 0.
        self.used = self.scale > 1e-6 * np.maximum(1, np.abs(self.mean))
        self.scale[~self.used] = 1
        self.model = LogisticRegression(C=1.0, max_iter=2000)
        self.model.fit(((d - self.mean) / self.scale)[:, self.used], y)
        self.coefficients = np.zeros(d.shape[1])
        self.coefficients[self.used] = self.model.coef_[0]
        return self

    def predict(self, x):
        d, _ = self.design(x)
        z = ((d - self.mean) / self.scale) @ self.coefficients + self.model.intercept_[0]
        return 1 / (1 + np.exp(-z))

    def to_json(self):
        return {
            "kind": "logistic", "features": self.names, "logFeatures": sorted(LOG_FEATURES & set(self.names)),
            "fill": self.fill, "interactions": [pair for pair in INTERACTIONS if set(pair) <= set(self.names)], "columns": self.labels, "mean": self.mean.tolist(),
            "scale": self.scale.tolist(), "coefficients": self.coefficients.tolist(),
            "intercept": float(self.model.intercept_[0]),
        }


class Trees:
    """Gradient-boosted trees on the raw features."""

    def __init__(self, names):
        self.names = names

    def fit(self, x, y):
        # A feature unknown in every training row (notifications, without the one log that has
        # them) is a constant 0 there: no tree splits on it.
        x = x.copy()
        x[:, np.isnan(x).all(axis=0)] = 0
        weight = None
        if NEGATIVES:
            # Every positive row and a seeded share of the negative ones, weighted back.
            keep = (y == 1) | (np.random.default_rng(0).random(len(y)) < NEGATIVES)
            x, y = x[keep], y[keep]
            weight = np.where(y == 1, 1.0, 1.0 / NEGATIVES)
        self.model = HistGradientBoostingClassifier(**TREE_SETTINGS)
        self.model.fit(x, y, sample_weight=weight)
        return self

    def predict(self, x):
        return self.model.predict_proba(x)[:, 1]

    def to_json(self):
        trees = []
        for (predictor,) in self.model._predictors:
            nodes = predictor.nodes
            trees.append({
                "feature": [int(n["feature_idx"]) if not n["is_leaf"] else -1 for n in nodes],
                # A split on missingness alone has an infinite threshold, which JSON cannot hold:
                # the largest finite number sends every known value the same way.
                "threshold": [finite(n["num_threshold"]) if not n["is_leaf"] else 0.0 for n in nodes],
                "left": [int(n["left"]) if not n["is_leaf"] else -1 for n in nodes],
                "right": [int(n["right"]) if not n["is_leaf"] else -1 for n in nodes],
                "missingLeft": [bool(n["missing_go_to_left"]) for n in nodes],
                "value": [float(n["value"]) if n["is_leaf"] else 0.0 for n in nodes],
            })
        return {
            "kind": "trees", "features": self.names, "settings": TREE_SETTINGS,
            "baseline": float(np.ravel(self.model._baseline_prediction)[0]), "trees": trees,
        }


def finite(value):
    """A threshold as JSON can hold it: infinities become the largest finite numbers."""
    return max(min(float(value), sys.float_info.max), -sys.float_info.max)


def predict_json(model, x):
    """The chance of each row from the model as written in JSON, with numpy alone: the reference
    that an inference in another language is held to."""
    if model["kind"] == "trees":
        raw = np.full(len(x), model["baseline"])
        for tree in model["trees"]:
            feature, threshold = np.array(tree["feature"]), np.array(tree["threshold"])
            # The largest finite number stands for the infinite threshold JSON cannot hold.
            threshold[threshold >= sys.float_info.max] = np.inf
            left, right, missing = np.array(tree["left"]), np.array(tree["right"]), np.array(tree["missingLeft"])
            node = np.zeros(len(x), dtype=np.int64)
            while True:
                inner = feature[node] >= 0
                if not inner.any():
                    break
                rows = np.nonzero(inner)[0]
                value = x[rows, feature[node[rows]]]
                goes_left = np.where(np.isnan(value), missing[node[rows]], value <= threshold[node[rows]])
                node[rows] = np.where(goes_left, left[node[rows]], right[node[rows]])
            raw += np.array(tree["value"])[node]
        return 1 / (1 + np.exp(-raw))
    logistic = Logistic(model["features"])
    logistic.fill = model["fill"]
    d, _ = logistic.design(x)
    z = ((d - np.array(model["mean"])) / np.array(model["scale"])) @ np.array(model["coefficients"])
    return 1 / (1 + np.exp(-(z + model["intercept"])))


def scores(y, p):
    p = np.clip(p, 1e-7, 1 - 1e-7)
    auc = roc_auc_score(y, p) if 0 < y.sum() < len(y) else float("nan")
    return log_loss(y, p, labels=[0, 1]), auc


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("logs", nargs="+", help="NAME=PATH of each log's rows")
    parser.add_argument("--model", choices=["trees", "logistic"], default="trees", help="the model written out")
    parser.add_argument("--out", help="write the model fitted on all logs as JSON here")
    parser.add_argument("--only", help="fit the logistic model and the trees on these features alone (comma-separated)")
    parser.add_argument("--predict", metavar="MODEL", help="write the chances of one file's rows under this model")
    parser.add_argument("--swift-out", help="write the trees fitted on all logs as the package's prior, a Swift source")
    parser.add_argument("--prior-version", type=int, default=1, help="the prior's version in --swift-out")
    parser.add_argument("--tree-settings", metavar="JSON",
                        help='settings of the trees that replace the defaults, such as \'{"max_leaf_nodes": 7}\'')
    parser.add_argument("--negatives", type=float, metavar="SHARE",
                        help="fit the trees on every positive row and this share of the negative ones, "
                             "weighted back (0.15: the replay's subsampling)")
    parser.add_argument("--lolo-out", metavar="FOLDER",
                        help="write each model fitted without one log as FOLDER/without-NAME.json, "
                             "for `fetchpredict evaluate --forecaster trees=FILE` on the log it never saw")
    args = parser.parse_args()
    if args.tree_settings:
        TREE_SETTINGS.update(json.loads(args.tree_settings))
    if args.negatives is not None:
        if not 0 < args.negatives <= 1:
            sys.exit("--negatives is a share above 0 and at most 1")
        global NEGATIVES
        NEGATIVES = args.negatives
    if args.predict:
        predict_file(args.predict, args.logs, args.out)
        return

    logs = []
    for item in args.logs:
        name, _, path = item.partition("=")
        names, x, y = read_rows(path)
        logs.append((name, x, y))
        print("%s: %d rows, %.4f positive" % (name, len(y), y.mean()), file=sys.stderr)
    if any(n != names for n in [read_rows_header(p) for p in [i.partition("=")[2] for i in args.logs]]):
        sys.exit("the logs' rows have different columns")

    if args.only:
        keep = args.only.split(",")
        unknown = [name for name in keep if name not in names]
        if unknown:
            sys.exit("no such feature: %s" % ", ".join(unknown))
        columns = [names.index(name) for name in keep]
        logs = [(name, x[:, columns], y) for name, x, y in logs]
        names = keep
    makers = {
        "baseline": lambda: Logistic(names, only=["profileNext30"]),
        "logistic": lambda: Logistic(names),
        "trees": lambda: Trees(names),
    }
    results = {}
    for kind, make in makers.items():
        started = time.time()
        x_all = np.vstack([x for _, x, _ in logs])
        y_all = np.concatenate([y for _, _, y in logs])
        full = make().fit(x_all, y_all)
        inside, held_out = [], []
        for name, x, y in logs:
            p = full.predict(x)
            inside.append(p)
            results[(kind, name, "in")] = scores(y, p)
        for held, (name, x, y) in enumerate(logs):
            others = [i for i in range(len(logs)) if i != held]
            model = make().fit(np.vstack([logs[i][1] for i in others]), np.concatenate([logs[i][2] for i in others]))
            p = model.predict(x)
            held_out.append(p)
            if kind == args.model and args.lolo_out:
                os.makedirs(args.lolo_out, exist_ok=True)
                with open(os.path.join(args.lolo_out, "without-%s.json" % name), "w") as handle:
                    json.dump(model.to_json(), handle, separators=(",", ":"), allow_nan=False)
            results[(kind, name, "lolo")] = scores(y, p)
        # Pooled: every log's rows, each scored by the model fitted without its log (LOLO) or with all.
        results[(kind, "pooled", "in")] = scores(y_all, np.concatenate(inside))
        results[(kind, "pooled", "lolo")] = scores(y_all, np.concatenate(held_out))
        print("%s fitted in %.0f s" % (kind, time.time() - started), file=sys.stderr)
        if kind == "trees" and args.swift_out:
            prior = full.to_json()
            prior["version"] = args.prior_version
            prior["fittedOn"] = [{"log": name, "rows": int(len(y))} for name, _, y in logs]
            write_swift_prior(prior, args.swift_out)
            difference = np.abs(predict_json(json.loads(json.dumps(prior)), x_all) - full.predict(x_all)).max()
            print("the prior, read back, gives chances that differ from the fit's by %.2g at most" % difference,
                  file=sys.stderr)
        if kind == args.model and args.out:
            written = full.to_json()
            with open(args.out, "w") as handle:
                json.dump(written, handle, separators=(",", ":"), allow_nan=False)
            with open(args.out) as handle:
                difference = np.abs(predict_json(json.load(handle), x_all) - full.predict(x_all)).max()
            print("wrote %s: read back, its chances differ from the fit's by %.2g at most" % (args.out, difference),
                  file=sys.stderr)

    print("| log | rows | positive | baseline LOLO loss / AUC | logistic LOLO loss / AUC | logistic in-sample | trees LOLO loss / AUC | trees in-sample |")
    print("| --- | ---: | ---: | --- | --- | --- | --- | --- |")
    y_all = np.concatenate([y for _, _, y in logs])
    for name, x, y in logs + [("pooled", None, y_all)]:
        cell = lambda kind, where: "%.4f / %.3f" % results[(kind, name, where)]
        print("| %s | %d | %.4f | %s | %s | %s | %s | %s |" % (
            name, len(y), y.mean(), cell("baseline", "lolo"), cell("logistic", "lolo"), cell("logistic", "in"),
            cell("trees", "lolo"), cell("trees", "in")))


def write_swift_prior(prior, path):
    """The prior as a Swift source: its JSON in a raw string, which holds no '"#' to end it early."""
    text = json.dumps(prior, separators=(",", ":"), allow_nan=False)
    assert '"#' not in text
    logs = ", ".join("%s (%d rows)" % (item["log"], item["rows"]) for item in prior["fittedOn"])
    with open(path, "w") as handle:
        handle.write(
            "// swift-format-ignore-file\n// Written by scripts/fit-launch-model.py --swift-out: do not edit. Fitted on %s.\n\n" % logs
            + "extension LaunchModel {\n"
            + "    /// The population prior's JSON, version %d.\n" % prior["version"]
            + "    static let priorJSON = #\"" + text + "\"#\n"
            + "}\n")
    print("wrote %s: the prior, version %d, %d trees" % (path, prior["version"], len(prior["trees"])), file=sys.stderr)


def predict_file(model_path, paths, out):
    """Writes the chance of every row of one rows file under a model's JSON."""
    if len(paths) != 1:
        sys.exit("--predict reads one rows file")
    with open(model_path) as handle:
        model = json.load(handle)
    names, x, _ = read_rows(paths[0].partition("=")[2] or paths[0])
    missing = [name for name in model["features"] if name not in names]
    if missing:
        sys.exit("the rows have no column %s" % ", ".join(missing))
    chances = predict_json(model, x[:, [names.index(name) for name in model["features"]]])
    text = "".join("%.17g\n" % chance for chance in chances)
    if out:
        with open(out, "w") as handle:
            handle.write(text)
    else:
        sys.stdout.write(text)


def read_rows_header(path):
    with open(path, newline="") as handle:
        return next(csv.reader(handle))[3:-1]


if __name__ == "__main__":
    main()
