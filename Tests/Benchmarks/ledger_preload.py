#!/usr/bin/env python3
"""Fills a StoreGate SQLite ledger with COUNT purchases of other buyers (a transaction each, and a delivery for
every second one), so that a benchmark meets a large ledger. Written in batches, each its own transaction, in
WAL mode beside a running gateway. Usage: ledger_preload.py LEDGER_FILE COUNT"""
import sqlite3
import sys
import time

path, count = sys.argv[1], int(sys.argv[2])
products = ["com.example.magazine.issue42", "com.example.magazine.field-guide", "com.example.magazine.tip"]
db = sqlite3.connect(path, timeout=30)
db.execute("PRAGMA journal_mode=WAL")
now = int(time.time() * 1000)
started = time.time()
batch = 50_000
for first in range(0, count, batch):
    rows = range(first, min(first + batch, count))
    purchases, transactions, deliveries = [], [], []
    for n in rows:
        original = f"7{n:015d}"
        product = products[n % len(products)]
        key = f"{original}"
        request = f"preload-{n:09d}"
        bought = now - 86_400_000 * (n % 700)
        purchases.append(("Production", key, product, "com.example.magazine", original, original, None, bought, None,
                          None, 1, bought, bought, "verify", "verify", request))
        transactions.append(("Production", original, key, product, original, None, bought, None, None, 1, bought,
                             bought, "verify", request))
        if n % 2 == 0:
            deliveries.append(("Production", product, original, "0" * 64, request, bought))
    with db:
        db.executemany("INSERT OR IGNORE INTO purchases VALUES (" + ",".join("?" * 16) + ")", purchases)
        db.executemany("INSERT OR IGNORE INTO transactions VALUES (" + ",".join("?" * 14) + ")", transactions)
        db.executemany("INSERT INTO deliveries (environment, product_id, original_transaction_id, content_sha256,"
                       " request_id, delivered_ms) VALUES (?,?,?,?,?,?)", deliveries)
db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
print(f"preloaded {count} purchases in {time.time() - started:.0f} s")
