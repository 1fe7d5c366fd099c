// The repository's root folder, for files read or started by path (the sample requests, the Lambda
// threads' entry). Resolved from this file, two folders below the root; the bundled CLI's files
// (dist/cli, bin/build-cli.mjs) are two folders below it too, and there every module has the URL of
// the bundle file it was put in, so the same relative URL holds in both.
export const REPO_ROOT_URL = new URL("../../", import.meta.url);
