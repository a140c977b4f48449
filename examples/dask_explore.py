#!/usr/bin/env python3
"""An opening tree of a big PGN file on Dask.distributed: `bitboard-patterns explore` as the map
over parts cut at game boundaries, `bitboard-patterns explore merge` as the reduce.

    python3 examples/dask_explore.py games.pgn --out tree.parquet [--parts 8] [--max-ply 20]
        [--scheduler tcp://host:8786] [--workers 2] [--work-dir DIR] [--cli "npx bitboard-patterns"]

Without --scheduler a local cluster is started (--workers processes over TCP on 127.0.0.1). The parts
and the trees of the parts are files in --work-dir, which every worker must see under the same path
(a shared filesystem on a real cluster). Each part is cut at the start of a game: the first line
starting with "[" that follows a blank line after the cut point, which is where the PGN export format
(PGN Standard, section 8: a game's tag pair section follows the previous game's movetext and a blank
line) starts the next game. A .pgn.zst or .pgn.gz file is decompressed to --work-dir first. The
merged tree is the sum of the parts' trees, row by row: the same file `explore` writes for the whole
input on one machine (for parts without --min-games; a --min-games filter applies to the merge).

Needs Python's `distributed` (Debian: python3-distributed) and the bitboard-patterns command.
"""
import argparse
import json
import os
import shlex
import subprocess
import sys
import time


def cut_points(path, parts):
    """Byte offsets where parts start: 0, then for each k/parts of the file the next game start."""
    size = os.path.getsize(path)
    points = [0]
    with open(path, 'rb') as f:
        for k in range(1, parts):
            f.seek(max(points[-1] + 1, size * k // parts))
            previous_blank = False
            # Read line by line from the cut until a '[' line follows a blank line.
            f.readline()  # the rest of the line the cut fell into
            at = f.tell()
            while True:
                line = f.readline()
                if not line:
                    at = size
                    break
                if line.startswith(b'[') and previous_blank:
                    break
                previous_blank = line.strip() == b''
                at = f.tell()
            if at >= size:
                break
            if at > points[-1]:
                points.append(at)
    return points + [size]


def connect(scheduler, workers, work_dir):
    """A client of the scheduler at that address, or of a local cluster of `workers` single-threaded
    worker processes on loopback; returns (client, cluster), cluster None for a remote scheduler."""
    from distributed import Client, LocalCluster

    if scheduler:
        return Client(scheduler), None
    cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, protocol='tcp',
                           host='127.0.0.1', dashboard_address=None, local_directory=os.path.join(work_dir, 'dask'))
    return Client(cluster), cluster


def plain_input(path, work_dir):
    """The PGN file to cut: `path` itself, or for a zstd or gzip file (found by its first bytes) its
    text decompressed to work_dir/input.pgn by the zstd or gzip tool."""
    with open(path, 'rb') as f:
        magic = f.read(4)
    if magic != b'\x28\xb5\x2f\xfd' and magic[:2] != b'\x1f\x8b':
        return path
    source = os.path.join(work_dir, 'input.pgn')
    with open(source, 'wb') as out:
        subprocess.run(['zstd' if magic[0] == 0x28 else 'gzip', '-dc', path], stdout=out, check=True)
    return source


def write_parts(path, work_dir, parts):
    points = cut_points(path, parts)
    files = []
    with open(path, 'rb') as f:
        for i in range(len(points) - 1):
            part = os.path.join(work_dir, f'part{i:05d}.pgn')
            f.seek(points[i])
            remaining = points[i + 1] - points[i]
            with open(part, 'wb') as out:
                while remaining > 0:
                    block = f.read(min(remaining, 1 << 24))
                    out.write(block)
                    remaining -= len(block)
            files.append(part)
    return files


def explore_part(cli, part, max_ply):
    """The map task: the tree of one part, as a Parquet file beside it."""
    tree = part[:-len('.pgn')] + '.parquet'
    r = subprocess.run(cli + ['explore', part, '--max-ply', str(max_ply), '--out', tree], capture_output=True)
    if r.returncode not in (0, 3):  # 3: some games could not be read (reported, counted nowhere)
        raise RuntimeError(f'explore {part}: exit code {r.returncode}: {r.stderr.decode()}')
    return tree, r.returncode, r.stderr.decode()


def merge_trees(cli, trees, out, min_games):
    """The reduce task: the sum of the parts' trees."""
    args = cli + ['explore', 'merge', *trees, '--out', out]
    if min_games > 1:
        args += ['--min-games', str(min_games)]
    r = subprocess.run(args, capture_output=True)
    if r.returncode != 0:
        raise RuntimeError(f'explore merge: exit code {r.returncode}: {r.stderr.decode()}')
    return out


def main():
    p = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    p.add_argument('pgn')
    p.add_argument('--out', required=True)
    p.add_argument('--parts', type=int, default=8)
    p.add_argument('--max-ply', type=int, default=20)
    p.add_argument('--min-games', type=int, default=1)
    p.add_argument('--scheduler')
    p.add_argument('--workers', type=int, default=2)
    p.add_argument('--work-dir', default='dask-explore-work')
    p.add_argument('--cli', default='bitboard-patterns')
    a = p.parse_args()

    cli = shlex.split(a.cli)
    os.makedirs(a.work_dir, exist_ok=True)
    work_dir = os.path.abspath(a.work_dir)
    source = plain_input(a.pgn, work_dir)
    started = time.time()
    parts = write_parts(source, work_dir, a.parts)
    client, cluster = connect(a.scheduler, a.workers, work_dir)
    try:
        trees = client.map(explore_part, [cli] * len(parts), parts, [a.max_ply] * len(parts), pure=False)
        merged = client.submit(merge_trees, cli, [t[0] for t in client.gather(trees)], os.path.abspath(a.out), a.min_games, pure=False)
        out = merged.result()
        results = client.gather(trees)
        workers = len(client.scheduler_info()['workers'])
    finally:
        client.close()
        if cluster:
            cluster.close()
    bad = sum(1 for _, code, _ in results if code == 3)
    for _, code, err in results:
        if err:
            sys.stderr.write(err)
    print(json.dumps({'parts': len(parts), 'workers': workers, 'parts_with_bad_games': bad, 'out': out,
                      'seconds': round(time.time() - started, 3)}))


if __name__ == '__main__':
    main()
