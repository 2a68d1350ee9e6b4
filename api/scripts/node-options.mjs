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
