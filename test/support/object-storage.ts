import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';

/** An S3-compatible server of the test's own (s3rver, files in a temporary folder), and its bucket. */
export interface TestBucket {
  endpoint: string;
  name: string;
  /** The settings that send the product's images to this bucket. */
  settings: Record<string, string>;
  /** Every key under `prefix`, sorted. */
  keys(prefix?: string): Promise<string[]>;
  /** An object's bytes and headers, read with the bucket's credentials. */
  object(key: string): Promise<{ bytes: Buffer; contentType?: string; cacheControl?: string } | undefined>;
  close(): Promise<void>;
}

/** s3rver's fixed credentials: it checks signatures made with them. */
const ACCESS_KEY = 'S3RVER';

export async function startTestBucket(name = 'offers-media'): Promise<TestBucket> {
  const directory = await mkdtemp(join(tmpdir(), 'offers-s3-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name, configs: [] }],
  });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const client = new S3Client({
    region: 'us-east-1',
    endpoint,
    forcePathStyle: true,
    credentials: { accessKeyId: ACCESS_KEY, secretAccessKey: ACCESS_KEY },
  });
  return {
    endpoint,
    name,
    settings: {
      MEDIA_STORE: 's3',
      S3_BUCKET: name,
      S3_ENDPOINT: endpoint,
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: ACCESS_KEY,
      S3_SECRET_ACCESS_KEY: ACCESS_KEY,
      S3_FORCE_PATH_STYLE: 'true',
    },
    async keys(prefix = '') {
      const keys: string[] = [];
      let token: string | undefined;
      do {
        const page = await client.send(
          new ListObjectsV2Command({ Bucket: name, Prefix: prefix, ContinuationToken: token }),
        );
        keys.push(...(page.Contents ?? []).map((object) => object.Key!));
        token = page.NextContinuationToken;
      } while (token);
      return keys.sort();
    },
    async object(key) {
      try {
        const answer = await client.send(new GetObjectCommand({ Bucket: name, Key: key }));
        return {
          bytes: Buffer.from(await answer.Body!.transformToByteArray()),
          contentType: answer.ContentType,
          cacheControl: answer.CacheControl,
        };
      } catch (error) {
        if ((error as { name?: string }).name === 'NoSuchKey') return undefined;
        throw error;
      }
    },
    async close() {
      client.destroy();
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
