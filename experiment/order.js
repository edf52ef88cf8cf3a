'use strict';
// The order in which a repetition runs a phase's policies: rows of a
// Williams design, so that across repetitions every policy -- the
// reference among them -- runs in every position, and follows every other
// policy equally often (carry-over from one run to the next, a warm cache
// or a backlog, falls on each alike).  For n policies the design has n
// rows (n even) or 2n (n odd: each row and its mirror image).  Which
// policy takes which place in the design is a seeded shuffle, the same
// for every service; each service takes rows of its own while the design
// has enough (Williams, Aust. J. Sci. Res. A 2,
// 1949).

const { rng } = require('./loadgen');

function shuffled(list, seed) {
  const random = rng(seed ^ 0x5eed);
  const out = [...list];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

// The rows of a Williams design for n treatments (0..n-1).
function williams(n) {
  const first = [0];
  for (let k = 1, lo = 1, hi = n - 1; k < n; k++) first.push(k % 2 ? lo++ : hi--);
  const rows = [];
  for (let i = 0; i < n; i++) rows.push(first.map((x) => (x + i) % n));
  if (n % 2) for (let i = 0; i < n; i++) rows.push([...rows[i]].reverse());
  return rows;
}

// Repetition @rep's order of @policies for the @service-th service of a
// phase of @reps repetitions; @seed names the phase.  Each service takes
// @reps rows after the previous service's: within a service the
// repetitions take distinct rows, and two services different ones while
// the design has rows enough.
function repetitionOrder(policies, seed, service, reps, rep) {
  const labels = shuffled(policies, seed);
  const rows = williams(labels.length);
  return rows[(service * reps + rep) % rows.length].map((i) => labels[i]);
}

// make demo's @pair-th pair (demo/driver.js): the order of its @sides.
// Two sides alternate, the first first.  More: a row of the Williams
// design, then its mirror image, then the next row and its mirror, so
// that any even number of pairs runs every two sides in either order
// equally often (positions balance only over whole designs: 6 pairs for
// three sides).  A row and its mirror put one side twice in a row across
// the two pairs' boundary.
function sideOrder(sides, pair) {
  const n = sides.length;
  const rows = williams(n);
  let row;
  if (n <= 2) row = rows[pair % n];
  else {
    row = rows[Math.floor(pair / 2) % n];
    if (pair % 2) row = [...row].reverse();
  }
  return row.map((i) => sides[i]);
}

// A run's `after` (driver.js): the policy that ran before it in its
// repetition, WARM_UP after the unmeasured warm-up run, null if none did.
// The first measured run of a repetition is either of the last two.
const WARM_UP = 'warm-up';
const firstMeasured = (r) => r.after === null || r.after === WARM_UP;

module.exports = { shuffled, williams, repetitionOrder, sideOrder, WARM_UP, firstMeasured };
