"""bench/push.py's figures: per step, from the rolls' commits and the pages' arrivals, printed
and in Markdown, and the summary's rows (bench/run.py, bench/_targets.py)."""

from __future__ import annotations

import os

SECONDS = float(os.environ.get("BENCH_PUSH_SECONDS", "10"))


def percentile(values: list[float], fraction: float) -> float:
    return values[min(len(values) - 1, int(fraction * len(values)))] if values else float("nan")


def figures(*, pages, tables, rate, records, seers, results, rss, pg, cpu, opened) -> dict:
    committed = {r[0]: r[4] for r in records}
    received: dict[tuple[int, int], float] = {}
    leaked = duplicates = others = 0
    for result in results:
        for page, event, arrived in result["arrivals"]:
            if event not in committed:
                others += 1  # a row no roll of the run made (none expected)
                continue
            if page not in seers[event]:
                leaked += 1
            elif (page, event) in received:
                duplicates += 1
            else:
                received[(page, event)] = arrived
    latencies = sorted(
        1000 * (arrived - committed[event]) for (_, event), arrived in received.items()
    )
    expected = sum(len(s) for s in seers.values())
    publishing = sorted(1000 * (r[5] - r[4]) for r in records)
    lateness = sorted(1000 * r[6] for r in records)
    lags = sorted(1000 * lag for result in results for lag in result["lags"])
    rss_before, rss_open, rss_held = rss
    return {
        "pages": pages,
        "tables": len(tables),
        "asked": rate,
        "rate": len(records) / SECONDS,
        "rolls": len(records),
        "expected": expected,
        "received": len(received),
        "lost": expected - len(received),
        "leaked": leaked,
        "duplicates": duplicates,
        "others": others,
        "p50": percentile(latencies, 0.50),
        "p95": percentile(latencies, 0.95),
        "p99": percentile(latencies, 0.99),
        "max": latencies[-1] if latencies else float("nan"),
        "publish_p50": percentile(publishing, 0.50),
        "publish_p95": percentile(publishing, 0.95),
        "late_p95": percentile(lateness, 0.95),
        "lag_p99": percentile(lags, 0.99),
        "lag_max": lags[-1] if lags else float("nan"),
        "rss_before": rss_before,
        "rss_open": rss_open,
        "rss_held": rss_held,
        "kib": (rss_held - rss_before) / 1024 / pages,
        "kib_open": (rss_open - rss_before) / 1024 / pages,
        "pg": pg,
        "cpu": cpu,
        "opened": opened[0],
        "opening": opened[1],
        "dropped": sum(r["dropped"] for r in results),
        "unopened": sum(r["unopened"] for r in results),
        "errors": [e for r in results for e in r["errors"]][:3],
    }


def report(f: dict) -> None:
    if "skipped" in f:
        print(f"  {f['pages']:5d} pages ({f['tables']} tables) : non mesuré — {f['skipped']}")
        return
    cpu, pg = f["cpu"], f["pg"]
    window = cpu["window"]
    print(
        f"  {f['pages']:5d} pages ({f['tables']} tables) : {f['opened']} flux ouverts en"
        f" {f['opening']:.1f} s ; jets {f['rate']:.0f}/s sur {f['asked']:.0f} demandés"
        f" (retard du pilote p95 {f['late_p95']:.0f} ms)"
    )
    print(
        f"        commit → page : p50 {f['p50']:.0f} ms, p95 {f['p95']:.0f} ms,"
        f" p99 {f['p99']:.0f} ms, max {f['max']:.0f} ms (dont publication par le"
        f" pilote p50 {f['publish_p50']:.0f} ms, p95 {f['publish_p95']:.0f} ms)"
    )
    print(
        f"        {f['received']} reçus sur {f['expected']} attendus : {f['lost']} perdus,"
        f" {f['leaked']} montrés à tort, {f['duplicates']} en double, {f['others']} autres ;"
        f" flux coupés {f['dropped']}, jamais ouverts {f['unopened']}"
        + (f" ({'; '.join(f['errors'])})" if f["errors"] else "")
    )
    print(
        f"        RSS du serveur {f['rss_before'] / 2**20:.0f} → {f['rss_held'] / 2**20:.0f} Mio :"
        f" {f['kib']:.0f} Kio par page ouverte ({f['kib_open']:.0f} juste ouverte) ;"
        f" PostgreSQL : {pg['per_page']:.2f} connexion par page ouverte, {pg['kib']:.0f} Kio"
        f" privés par page ; 1 s après la fermeture des pages, {pg['left']} connexions encore"
        " ouvertes"
    )
    workers = ", ".join(f"{w / window:.2f}" for w in cpu["workers"])
    cores = os.cpu_count() or 1
    known = sum(cpu[k] or 0.0 for k in ("server", "driver", "clients", "postgres", "redis"))
    print(
        f"        CPU en cœurs sur {window:.1f} s : serveur {cpu['server'] / window:.2f}"
        f" (workers {workers}), pilote {cpu['driver'] / window:.2f}"
        f" ({1000 * cpu['driver'] / max(f['rolls'], 1):.1f} ms par jet),"
        f" clients {cpu['clients'] / window:.2f}, PostgreSQL {cores_of(cpu['postgres'], window)},"
        f" Redis {cores_of(cpu['redis'], window)}, le reste de la machine"
        f" {max(cpu['busy'] * cores - known / window, 0):.2f} ; machine occupée"
        f" {100 * cpu['busy']:.0f} % ; retard de boucle des clients p99 {f['lag_p99']:.0f} ms,"
        f" max {f['lag_max']:.0f} ms"
    )


def cores_of(seconds: float | None, window: float) -> str:
    return "?" if seconds is None else f"{seconds / window:.2f}"


def markdown(rows: list[dict]) -> str:
    out = [
        "| pages | jets/s demandés | jets/s tenus | p50 | p95 | p99 | perdus | montrés à tort"
        " | RSS par page | connexions PostgreSQL par page | CPU serveur | CPU pilote"
        " | machine occupée |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for f in rows:
        if "skipped" in f:
            out.append(f"| {f['pages']} | {f['tables']} | non mesuré : {f['skipped']} |")
            continue
        window = f["cpu"]["window"]
        out.append(
            f"| {f['pages']} | {f['asked']:.0f} | {f['rate']:.0f} | {f['p50']:.0f} ms"
            f" | {f['p95']:.0f} ms | {f['p99']:.0f} ms | {f['lost']} / {f['expected']}"
            f" | {f['leaked']} | {f['kib']:.0f} Kio | {f['pg']['per_page']:.2f}"
            f" ({f['pg']['kib']:.0f} Kio) | {f['cpu']['server'] / window:.2f} cœur"
            f" | {f['cpu']['driver'] / window:.2f} cœur | {100 * f['cpu']['busy']:.0f} % |"
        )
    return "\n".join(out)


def name_of(pages: int) -> str:
    return f"flux en direct : {pages} pages ouvertes (jet commis → page)"


def row_of(found: dict) -> dict:
    """The summary's row (bench/run.py, bench/_targets.py)."""
    if "skipped" in found:
        return {"name": name_of(found["pages"]), "skipped": found["skipped"]}
    keys = ("p50", "p95", "p99", "lost", "leaked", "expected", "rate", "asked", "kib")
    return {
        "name": name_of(found["pages"]),
        **{k: found[k] for k in keys},
        "rate_share": found["rate"] / found["asked"],
    }


HELD = "pages de table ouvertes tenues (flux en direct, p99 ≤ 250 ms)"


def held_row(rows: list[dict]) -> dict:
    """Issue 38's open pages, held by push: the most pages of a step whose rolls reached every
    page that may see them within 250 ms (p99), none lost or shown to the wrong member, at the
    roll rate that step reached (`rate`; p99 in `ms`, as the table bench's polling row)."""
    held = [
        f
        for f in rows
        if "skipped" not in f and f["p99"] <= 250 and f["lost"] == 0 and f["leaked"] == 0
    ]
    best = max(held, key=lambda f: f["pages"], default=None)
    if best is None:
        return {"name": HELD, "pages": 0, "ms": 0}
    return {"name": HELD, "pages": best["pages"], "ms": best["p99"], "rate": best["rate"]}
