'use strict';
// Did every hint a policy's server sent reach the kernel?  The server counts
// each hint it tried to send (control.js: the package's boosts, refused and
// errors); the kernel counts each vote cast and each ended, but not one it
// refused (-EBUSY, the policy's budget or the client's share spent: the
// ioctl returns before eb_cpu_update() counts it).  So the hints sent and
// not refused reached it when kernel >= own - refused; a failed hint
// (an error) is what the check is for.  Runs before 2026-12-05's evening
// record no refused count: the experiment lifts the budget (driver.js), and
// a refusal would have failed the check there.
//   seens: the runs' `seen` records (driver.js), summed.
function hintsReachedKernel(seens) {
  const sum = (k) => seens.reduce((a, x) => a + (x[k] || 0), 0);
  const own = sum('own'), refused = sum('refused'), kernel = sum('kernel'), edge = sum('edge');
  return { own, refused, kernel, edge, ok: kernel >= own - refused };
}

module.exports = { hintsReachedKernel };
