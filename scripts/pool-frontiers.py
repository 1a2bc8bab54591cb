#!/usr/bin/env python3
"""Pools the predictor's frontiers of several `fetchpredict evaluate` outputs (text, as it
prints them) into one, as `evaluate` pools the devices of one store: at each budget level, the
cold launches, fresh launches and wakes of every log added up. Then reads fresh@4 and wakes@50
off the pooled frontier the way `evaluate` does (a straight line between measured points).

For logs that cannot be evaluated in one run, such as each log with the launch model fitted
without it (leave one log out):

    scripts/pool-frontiers.py out-xiaomi.txt out-samsung.txt ...     (or their outputs in one file)
"""
import re
import sys


def read(path):
    """Each log of one output, in order: its app-days and its predictor's rows, budget ->
    (cold, fresh, wakes per app-day). A log begins at its `device` line, so that the outputs of
    several runs may be in one file."""
    logs = []
    for line in open(path):
        if line.strip() == "overall:":
            # A store's pooled table follows its devices': it is not one more log.
            break
        device = re.match(r"device .*: (\d+) scored days?, (\d+) apps? in scope", line)
        if device:
            logs.append((int(device.group(1)) * int(device.group(2)), {}))
            continue
        fields = line.split()
        if logs and len(fields) >= 8 and fields[0] == "predictor":
            # The default level's budget is marked with a star.
            budget, cold, fresh, wakes_per_app_day = fields[1].rstrip("*"), int(fields[2]), int(fields[3]), float(fields[7])
            logs[-1][1][budget] = (cold, fresh, wakes_per_app_day)
    return logs


def fresh_at(wakes, points):
    points = sorted(points)
    for (wa, fa), (wb, fb) in zip(points, points[1:]):
        if wa <= wakes <= wb:
            return max(fa, fb) if wa == wb else fa + (fb - fa) * (wakes - wa) / (wb - wa)
    return None


def wakes_for(target, points):
    points = sorted(points)
    if points and points[0][1] >= target:
        return points[0][0]
    for (wa, fa), (wb, fb) in zip(points, points[1:]):
        if fa < target <= fb:
            return wa + (wb - wa) * (target - fa) / (fb - fa)
    return None


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    # A device with no scored day has no predictor rows, and nothing to pool.
    logs = [log for path in sys.argv[1:] for log in read(path) if log[1]]
    budgets = set.intersection(*[set(rows) for _, rows in logs])
    total_days = sum(days for days, _ in logs)
    points = []
    for budget in sorted(budgets, key=float):
        cold = sum(rows[budget][0] for _, rows in logs)
        fresh = sum(rows[budget][1] for _, rows in logs)
        # Wakes per app-day are rounded to 2 decimals in the text: the pooled figure is as near.
        wakes = sum(rows[budget][2] * days for days, rows in logs) / total_days
        points.append((wakes, fresh / cold))
        print("budget %s: %.2f wakes per app-day, fresh rate %.3f" % (budget, wakes, fresh / cold))
    at4, at50 = fresh_at(4, points), wakes_for(0.5, points)
    print("pooled over %d logs, %d app-days: fresh@4: %s   wakes@50: %s" % (
        len(logs), total_days, "%.3f" % at4 if at4 is not None else "not reached",
        "%.2f" % at50 if at50 is not None else "not reached"))


if __name__ == "__main__":
    main()
