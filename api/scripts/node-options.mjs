/**
 * The Node.js options the API process runs with, wherever it is started (`npm start`, the
 * benchmarks; docker-compose.yml writes them out). Plain JavaScript, as the start script runs
 * before anything is built.
 *
 * --no-memory-reducer: V8's memory reducer runs a full collection once the process has been idle
 * for a few seconds, to give memory back. On Node 20 the API came back from the first such
 * collection about a quarter slower for good, the time going to creating `process.nextTick`'s
 * objects. A server's heap stays at its working size anyway (figures in docs/decisions.md, "The
 * API keeps its heap when idle").
 */
export const API_NODE_OPTIONS = ['--no-memory-reducer'];

/**
 * The Node.js options of the workers process, wherever it is started (`npm start`, the
 * benchmarks; docker-compose.yml writes them out).
 *
 * --max-old-space-size=256: a feed run streams its feed and applies it a lot at a time, so its
 * heap holds a lot, not the feed; without a cap V8 sizes the old space by the machine's memory
 * and collects late, and a 100,000-row import grew the process by tens of MB it never needed.
 * With the cap the process stays under 300 MB (figures in docs/decisions.md, "Feed imports in
 * lots").
 */
export const WORKERS_NODE_OPTIONS = ['--max-old-space-size=256'];
