// Types of the API's and the workers' Node.js options (the module itself is plain JavaScript, as it runs before
// anything is built).
export declare const API_NODE_OPTIONS: readonly string[];
export declare const WORKERS_NODE_OPTIONS: readonly string[];
