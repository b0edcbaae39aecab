'use strict';
// The requests of `pnpm bench --scenarios scaling` (bench/scaling.ts), loaded by each of autocannon's
// worker threads (a worker takes a file, not a function). The kind and the slugs come from the
// environment the bench sets before it starts the run: BENCH_SCALING_KIND, BENCH_SCALING_DATA (a
// JSON file of { slugs, words }).
const { readFileSync } = require('node:fs');

const kind = process.env.BENCH_SCALING_KIND;
const { slugs, words } = JSON.parse(readFileSync(process.env.BENCH_SCALING_DATA, 'utf8'));
// each thread its own sequence: a multiplicative step over the slugs from a random start
let next = Math.floor(Math.random() * slugs.length);
const pick = (list) => {
  next = (next + 7919) % slugs.length;
  return list[next % list.length];
};

module.exports = function setupRequest(req) {
  if (kind === 'slug') req.path = `/api/projects/${encodeURIComponent(pick(slugs))}`;
  else if (kind === 'search') req.path = `/api/projects?q=${encodeURIComponent(pick(words))}&limit=20`;
  else if (kind === 'list') req.path = '/api/projects?limit=20';
  else throw new Error(`BENCH_SCALING_KIND: unknown kind ${kind}`);
  return req;
};
