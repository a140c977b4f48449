#!/usr/bin/env python3
"""Any bitboard-patterns subcommand that reads PGN and writes one output per game, mapped over parts of
a big PGN file on Dask.distributed; the outputs of the parts, joined in order, are the output.

    python3 examples/dask_map.py games.pgn --out annotated.pgn [--parts 8] [--workers 2]
        [--scheduler tcp://host:8786] [--work-dir DIR] [--cli "npx bitboard-patterns"]
        -- annotate --engine-nodes 100000 --fresh --engines 1

    python3 examples/dask_map.py month.pgn.zst --out-dir parts/ --parts 64
        -- analyze --format parquet --features inCheck,pinned

With --out-dir instead of --out the parts' outputs are not joined: part i's output is the file
DIR/part{i:05d}.{format} (the subcommand's --format: parquet, csv or ndjson), which is what Parquet
needs (a Parquet file cannot be concatenated) and what DuckDB reads as one table
(read_parquet('DIR/*.parquet', filename = true)). `analyze` numbers the games of each part from 1:
a game is told apart by its part's file name and its number.

The words after `--` are the subcommand and its options; the part's file is added after them. The
parts are cut at game starts as in examples/dask_explore.py (whose cutting this reuses; a .pgn.zst or
.pgn.gz file is decompressed to --work-dir first). Each task
runs one command, so with one thread per worker each worker holds one engine pool at a time
(`--engines` sets its size: the cores of the worker). With `--fresh` and a node limit the engines'
answers do not depend on which worker searched what, so the joined output equals one machine's
(annotate; `analyze --engine` with NDJSON, whose `game` numbers count from 1 in every part).

Needs Python's `distributed` (Debian: python3-distributed) and the bitboard-patterns command.
"""
import argparse
import json
import os
import shlex
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from dask_explore import connect, plain_input, write_parts  # noqa: E402


def map_part(cli, command, part):
    """The map task: the subcommand on one part, its output in a file beside the part."""
    out = part[:-len('.pgn')] + '.out'
    with open(out, 'wb') as f:
        r = subprocess.run(cli + command + [part], stdout=f, stderr=subprocess.PIPE)
    if r.returncode not in (0, 3):  # 3: some games or positions failed (reported on stderr)
        raise RuntimeError(f'{command[0]} {part}: exit code {r.returncode}: {r.stderr.decode()}')
    return out, r.returncode, r.stderr.decode()


def output_format(command):
    """The extension of a part's output: the subcommand's --format (analyze's default is ndjson;
    another subcommand without --format writes .out)."""
    for i, word in enumerate(command):
        if word == '--format' and i + 1 < len(command):
            return command[i + 1]
        if word.startswith('--format='):
            return word.split('=', 1)[1]
    return 'ndjson' if command[:1] == ['analyze'] else 'out'


def main():
    argv = sys.argv[1:]
    if '--' not in argv:
        sys.exit('usage: dask_map.py FILE (--out OUT | --out-dir DIR) [options] -- SUBCOMMAND [OPTIONS]')
    at = argv.index('--')
    p = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    p.add_argument('pgn')
    out = p.add_mutually_exclusive_group(required=True)
    out.add_argument('--out', help='the joined output')
    out.add_argument('--out-dir', help='one output file per part, in this directory (Parquet output)')
    p.add_argument('--parts', type=int, default=8)
    p.add_argument('--scheduler')
    p.add_argument('--workers', type=int, default=2)
    p.add_argument('--work-dir', default='dask-map-work')
    p.add_argument('--cli', default='bitboard-patterns')
    a = p.parse_args(argv[:at])
    command = argv[at + 1:]

    cli = shlex.split(a.cli)
    os.makedirs(a.work_dir, exist_ok=True)
    work_dir = os.path.abspath(a.work_dir)
    started = time.time()
    parts = write_parts(plain_input(a.pgn, work_dir), work_dir, a.parts)
    client, cluster = connect(a.scheduler, a.workers, work_dir)
    try:
        results = client.gather(client.map(map_part, [cli] * len(parts), [command] * len(parts), parts, pure=False))
        workers = len(client.scheduler_info()['workers'])
    finally:
        client.close()
        if cluster:
            cluster.close()
    if a.out_dir:
        os.makedirs(a.out_dir, exist_ok=True)
        kind = output_format(command)
        outputs = []
        for i, (path, _, _) in enumerate(results):
            target = os.path.join(a.out_dir, f'part{i:05d}.{kind}')
            shutil.move(path, target)
            outputs.append(target)
    else:
        with open(a.out, 'wb') as out:
            for path, _, _ in results:
                with open(path, 'rb') as f:
                    out.write(f.read())
    for _, _, err in results:
        if err:
            sys.stderr.write(err)
    print(json.dumps({'parts': len(parts), 'workers': workers, 'parts_with_errors': sum(1 for r in results if r[1] == 3),
                      'out': a.out or a.out_dir, 'seconds': round(time.time() - started, 3)}))


if __name__ == '__main__':
    main()
