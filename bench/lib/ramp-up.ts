/**
 * The connection ramp-up, kept out of a wrk round's figures (bench:api and bench:scale).
 *
 * Why (measured 2026-11-26, strace of the server and a 'connection' event log): Node 20's libuv
 * accepts ONE pending connection per event-loop turn, and each turn also serves every connection
 * already accepted. When wrk opens its 50 connections at once, the k-th is accepted only after k
 * turns of about 50 requests each, so its first request waits 0.5 to 1 s (up to 2 s on the app
 * routes): in 1 s rounds that ramp-up, not request handling, made the p99. Without load, 50
 * connections are accepted within a few ms, so each connection's first request waits HOLD_MS
 * and the load starts once every connection is in: the round measures the steady state.
 */
export const HOLD_MS = 300;

/**
 * wrk's `delay` hook: the first `connections` requests (one per connection, the first request of
 * each) wait holdMs, every later one none. wrk starts a request's clock after its delay, so the
 * hold is in no latency; it is in wrk's duration, which measuredSeconds() takes it off. One
 * counter per wrk thread (its own Lua state): right for `-t1`, as the benches run wrk.
 */
export function wrkHoldLua(connections: number, holdMs = HOLD_MS): string {
  if (holdMs <= 0) return '';
  return ['local held = 0', 'delay = function()', `  if held < ${connections} then held = held + 1; return ${holdMs} end`, '  return 0', 'end'].join('\n');
}

/** A round's measured duration: wrk's own (microseconds) less the hold. */
export const measuredSeconds = (wrkDurationUs: number, holdMs = HOLD_MS): number => Math.max(0, wrkDurationUs - holdMs * 1000) / 1e6;
