// `rewoo mcp --local | --api <url>`: which API the MCP server talks to. With --local, the twin that
// serves the data folder (`rewoo dev`), else one booted for the session and published as serving, so
// `--local` commands in other terminals go through it while the session lasts.
import { ApiClient, ApiRequestError } from "./api-client.ts";
import { withLocalApi } from "./local.ts";
import { serveMcp } from "./mcp.ts";
import { EXIT_INVALID_INPUT, EXIT_RUN_FAILED } from "./output.ts";
import { localDataDir } from "./twin-address.ts";

export async function runMcpCommand(options: { local?: boolean; api?: string }): Promise<number> {
  if (options.api !== undefined) {
    let client: ApiClient;
    try {
      client = new ApiClient(options.api);
    } catch (error) {
      if (!(error instanceof ApiRequestError)) throw error;
      process.stderr.write(`rewoo mcp: ${error.message}\n`);
      return EXIT_INVALID_INPUT;
    }
    return serveMcp(client, { describe: `the API at ${client.baseUrl}` });
  }
  // json: the boot's progress lines would otherwise go to stdout, which is the protocol's.
  return withLocalApi(undefined, { json: true, publishAs: "serving" }, async (api, _address, kind) => {
    if (kind === "following") {
      process.stderr.write(
        `rewoo mcp: the data folder ${localDataDir()} is served by the twin of another command, which stops when its run ends; try again when it is done, or start \`npx rewoo dev\` and run this again (it goes through that twin)\n`,
      );
      return EXIT_RUN_FAILED;
    }
    return serveMcp(new ApiClient(api), { describe: `the local twin (data folder ${localDataDir()})` });
  });
}
