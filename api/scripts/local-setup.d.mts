// Types of the set-up functions the tests call (the module itself is plain JavaScript, as it
// runs before `npm install`).
export declare const REPO_ROOT: string;
export declare function ensureSessionSecret(root?: string): boolean;
export declare function loadDotEnv(root?: string): void;
