#!/bin/bash
# How tests/corpus/diy was made (provenance; not run by CI or tests). Needs the herd7/diy7
# 7.57 anchors (../shared/notes/anchors.md). Generates 251 C tests into $OUT/<set>/,
# runs herd7 -model rc11.cat on each; the corpus keeps every third test of each set
# (sorted by name) with herd7's output as NAME.rc11.herd7.
set -e
H=${H:-/work/shared/anchors/herdtools7-7.57}
OUT=${OUT:-/tmp/diy-gen}
gen() { set=$1; shift; rm -rf "$OUT/$set"; mkdir -p "$OUT/$set"; (cd "$OUT/$set" && "$H/bin/diy7" -arch C "$@" -o "$OUT/$set" > log 2>&1); }
gen plain    -size 6 -relax PodWR,PodWW,PodRR,PodRW -safe Rfe,Fre,Wse
gen rlx      -size 6 -relax FreRlxRlx,PodWRRlxRlx -safe RfeRlxRlx,PodWWRlxRlx,PodRRRlxRlx,PodRWRlxRlx,WseRlxRlx
gen sc       -size 6 -relax PodWRScSc,FreScSc -safe RfeScSc,WseScSc,PodWWScSc,PodRRScSc,PodRWScSc
gen fences   -size 6 -relax FenceScdWRRlxRlx,FenceReldWWRlxRlx,FenceAcqdRRRlxRlx -safe RfeRlxRlx,FreRlxRlx,WseRlxRlx,PodWWRlxRlx,PodRRRlxRlx
gen mixed    -size 6 -relax PodWRRlxSc,PodWRScRlx,PodWRRelAcq -safe FreRlxRlx,FreScSc,FreAcqRlx,FreAcqSc,FreScRlx,FreAcqRel,FreRlxRel,FreScRel,FreAcqRlx,RfeRlxRlx
gen deps     -size 6 -relax DpDatadWRlxRlx,DpCtrldWRlxRlx,DpAddrdRRlxRlx -safe RfeRlxRlx,FreRlxRlx,PodWWRlxRlx,PodRRRlxRlx,WseRlxRlx
gen rlxmix   -size 6 -nprocs 4 -mix true -maxrelax 2 -relax PodWRRlxRlx,PodWWRlxRlx,PodRRRlxRlx,PodRWRlxRlx -safe RfeRlxRlx,FreRlxRlx,WseRlxRlx
gen relacq   -size 6 -nprocs 4 -mix true -maxrelax 2 -relax PodWWRlxRel,PodRRAcqRlx,PodRWAcqRlx,PodWRRelAcq -safe RfeRelAcq,FreRlxRlx,WseRlxRlx,FreAcqRlx,RfeRlxRlx,WseRelRlx
gen scmix    -size 6 -nprocs 4 -mix true -maxrelax 2 -relax PodWRScSc,PodWWScSc,PodRRScSc,PodRWScSc,PodWRRlxSc -safe RfeScSc,FreScSc,WseScSc,FreScRlx,RfeRlxRlx,FreRlxRlx
gen plainmix -size 6 -nprocs 4 -mix true -maxrelax 2 -relax PodWR,PodWW,PodRR,PodRW -safe Rfe,Fre,Wse
gen fencemix -size 6 -nprocs 4 -mix true -maxrelax 2 -relax FenceScdWRRlxRlx,FenceReldWWRlxRlx,FenceAcqdRRRlxRlx,FenceScdRWRlxRlx,FenceScdWWRlxRlx -safe RfeRlxRlx,FreRlxRlx,WseRlxRlx
gen relacq2  -size 6 -nprocs 4 -relax RfeRelAcq,RfeRelRlx,FreAcqRel -safe PodWWRlxRel,PodRRAcqRlx,PodRWAcqRlx,PodWRRlxRlx,PodRRRlxRlx,PodWWRlxRlx,PodRWRlxRlx,FreRlxRlx,WseRlxRlx,RfeRlxRlx
for f in "$OUT"/*/*.litmus; do
  HERDLIB=$H/libdir "$H/bin/herd7" -model rc11.cat "$f" > "${f%.litmus}.rc11.herd7"
done
ls "$OUT"/*/*.litmus | wc -l
