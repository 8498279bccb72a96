declare module 's3rver' {
  type Options = {
    port?: number;
    address?: string;
    silent?: boolean;
    directory: string;
    configureBuckets?: { name: string }[];
  };
  /** The Koa context as a middleware in front of S3rver's own sees it (the part tests use). */
  type Context = {
    method: string;
    path: string;
    headers: Record<string, string | string[] | undefined>;
    query: Record<string, string | string[] | undefined>;
    status: number;
    body: unknown;
  };
  export default class S3rver {
    constructor(options: Options);
    /** Koa's middleware list: S3rver composes it when it starts listening. */
    middleware: ((ctx: Context, next: () => Promise<void>) => Promise<void> | void)[];
    run(): Promise<{ port: number; address: string }>;
    close(): Promise<void>;
  }
}
