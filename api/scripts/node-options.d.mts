// Types of the API's Node.js options (the module itself is plain JavaScript, as it runs before
// anything is built).
export declare const API_NODE_OPTIONS: readonly string[];
