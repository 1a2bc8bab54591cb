#!/usr/bin/env python3
"""Writes big synthetic logs in the formats FetchPredictor imports, for scripts/bench-formats.sh:
the same launches (one every 30 seconds, 50 apps, from 2024-01-01) as an ActivityWatch bucket
CSV, an adb dumpsys usagestats dump, an App Usage export with notification rows, and a
knowledgeC.db. Made by the project from the documented formats, not from anyone's data.

  python3 scripts/make-format-logs.py EVENTS FOLDER
"""
import os
import sqlite3
import sys
from datetime import datetime, timedelta, timezone

events = int(sys.argv[1])
folder = sys.argv[2]
os.makedirs(folder, exist_ok=True)
start = datetime(2024, 1, 1, tzinfo=timezone.utc)


def moments():
    for index in range(events):
        yield index, start + timedelta(seconds=30 * index), f"com.example.app{index % 50}"


with open(os.path.join(folder, "bucket.csv"), "w") as out:
    out.write("id,timestamp,duration,data/app,data/classname,data/package\n")
    for index, moment, package in reversed(list(moments())):
        out.write(f"{index},{moment:%Y-%m-%dT%H:%M:%S}.000Z,25.0,App {index % 50},{package}.Main,{package}\n")

with open(os.path.join(folder, "usage.txt"), "w") as out:
    out.write("user=0\n  In-memory daily stats\n  events\n")
    for index, moment, package in moments():
        out.write(
            f'    time="{moment:%Y-%m-%d %H:%M:%S}" type=ACTIVITY_RESUMED package={package} '
            f"class={package}.Main instanceId={index} flags=0x0\n"
        )
        if index % 10 == 0:
            out.write(f'    time="{moment:%Y-%m-%d %H:%M:%S}" type=NOTIFICATION_INTERRUPTION package={package} flags=0x0\n')

with open(os.path.join(folder, "app-usage.csv"), "w") as out:
    out.write("App name,Date,Time,Duration\n")
    for index, moment, package in moments():
        out.write(f"App {index % 50},{moment:%-m/%-d/%Y},{moment:%H:%M:%S},0:00:25\n")
        if index % 10 == 0:
            out.write(f"Notification posted (App {(index + 1) % 50}),{moment:%-m/%-d/%Y},{moment:%H:%M:%S},0:00:00\n")

path = os.path.join(folder, "knowledgeC.db")
if os.path.exists(path):
    os.remove(path)
db = sqlite3.connect(path)
db.execute(
    "CREATE TABLE ZOBJECT (Z_PK INTEGER PRIMARY KEY, ZSTREAMNAME VARCHAR, ZVALUESTRING VARCHAR,"
    " ZVALUEINTEGER INTEGER, ZSTARTDATE TIMESTAMP, ZENDDATE TIMESTAMP, ZSECONDSFROMGMT INTEGER)"
)
reference = datetime(2001, 1, 1, tzinfo=timezone.utc)
db.executemany(
    "INSERT INTO ZOBJECT VALUES (?, '/app/inFocus', ?, NULL, ?, ?, 3600)",
    (
        (index + 1, package, (moment - reference).total_seconds(), (moment - reference).total_seconds() + 25)
        for index, moment, package in moments()
    ),
)
db.commit()
db.close()
