// dynalite and s3rver ship no type declarations. Only what the local twin uses is declared.
// (Kept under infra/local because tsconfig's "include" does not cover a top-level types/ folder.)

declare module "dynalite" {
  import type { Server } from "node:http";

  interface DynaliteOptions {
    /** LevelDB directory; in-memory when omitted. */
    path?: string;
    createTableMs?: number;
    deleteTableMs?: number;
    updateTableMs?: number;
    maxItemSizeKb?: number;
    verbose?: boolean;
    debug?: boolean;
    ssl?: boolean;
  }

  function dynalite(options?: DynaliteOptions): Server;
  export = dynalite;
}

declare module "s3rver" {
  import type { Server } from "node:http";
  import type { AddressInfo } from "node:net";

  interface S3rverOptions {
    address?: string;
    port?: number;
    silent?: boolean;
    directory?: string;
    resetOnClose?: boolean;
    allowMismatchedSignatures?: boolean;
    vhostBuckets?: boolean;
    serviceEndpoint?: string;
    configureBuckets?: Array<{ name: string; configs?: Array<string | Buffer> }>;
  }

  class S3rver {
    constructor(options?: S3rverOptions);
    httpServer?: Server;
    run(): Promise<AddressInfo>;
    close(): Promise<void>;
    reset(): void;
  }
  export = S3rver;
}

declare module "s3rver/lib/models/account.js" {
  interface AWSAccount {
    createKeyPair(accessKeyId: string, secretAccessKey: string): void;
    accessKeys: Map<string, string>;
  }
  const account: { DUMMY_ACCOUNT: AWSAccount; registry: Map<string, AWSAccount> };
  export = account;
}
