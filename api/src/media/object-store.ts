import type { Readable } from 'node:stream';
import {
  DeleteObjectsCommand,
  GetObjectCommand,
  NoSuchKey,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import type { Environment } from '../infrastructure/config/environment.js';

/** Where new images are written; a row's own `storage` says where an existing image is. */
export type MediaStorage = 'database' | 's3';

/** Public images never change under their key: a year in every cache, never asked again. */
export const PUBLIC_CACHE_CONTROL = 'public, max-age=31536000, immutable';
/** A shopper's invoice: never kept by a browser or a proxy. */
export const PRIVATE_CACHE_CONTROL = 'private, no-store';

export type MediaStoreSettings = Pick<
  Environment,
  | 'MEDIA_STORE'
  | 'S3_BUCKET'
  | 'S3_ENDPOINT'
  | 'S3_REGION'
  | 'S3_ACCESS_KEY_ID'
  | 'S3_SECRET_ACCESS_KEY'
  | 'S3_FORCE_PATH_STYLE'
  | 'MEDIA_PUBLIC_BASE_URL'
>;

let settings: MediaStoreSettings = {
  MEDIA_STORE: 'database',
  S3_REGION: 'us-east-1',
  S3_FORCE_PATH_STYLE: false,
};
let client: S3Client | undefined;

/**
 * Sets where images go from the settings. A process-wide value read by plain functions (as the
 * upload limit is), since every feature stores its images through media's functions inside its
 * own commands, in the API and in the workers alike.
 */
export function configureMediaStore(environment: MediaStoreSettings): void {
  client?.destroy();
  client = undefined;
  settings = { ...environment };
}

/** Where new images are written. */
export const mediaStorage = (): MediaStorage => settings.MEDIA_STORE;

/** The public address of public objects, when the API redirects to it rather than streaming. */
export const mediaPublicBaseUrl = (): string | undefined => settings.MEDIA_PUBLIC_BASE_URL || undefined;

/** The bucket, its client made on first use (the database mode never makes one). */
export function bucket(): { client: S3Client; name: string } {
  if (!settings.S3_BUCKET) throw new Error('S3_BUCKET is not set: images in the bucket cannot be reached');
  client ??= new S3Client({
    region: settings.S3_REGION,
    ...(settings.S3_ENDPOINT && { endpoint: settings.S3_ENDPOINT }),
    forcePathStyle: settings.S3_FORCE_PATH_STYLE,
    ...(settings.S3_ACCESS_KEY_ID &&
      settings.S3_SECRET_ACCESS_KEY && {
        credentials: {
          accessKeyId: settings.S3_ACCESS_KEY_ID,
          secretAccessKey: settings.S3_SECRET_ACCESS_KEY,
        },
      }),
  });
  return { client, name: settings.S3_BUCKET };
}

export interface StoredObject {
  key: string;
  bytes: Buffer;
  contentType: string;
  cacheControl: string;
}

/** Writes objects (the same key again writes the same bytes: public keys name their content). */
export async function putObjects(objects: readonly StoredObject[]): Promise<void> {
  const { client, name } = bucket();
  for (const object of objects) {
    await client.send(
      new PutObjectCommand({
        Bucket: name,
        Key: object.key,
        Body: object.bytes,
        ContentType: object.contentType,
        ContentLength: object.bytes.length,
        CacheControl: object.cacheControl,
      }),
    );
  }
}

/** An object's body as a stream with its length, or undefined when the bucket has no such key. */
export async function objectStream(
  key: string,
): Promise<{ body: Readable; length: number | undefined } | undefined> {
  const { client, name } = bucket();
  try {
    const answer = await client.send(new GetObjectCommand({ Bucket: name, Key: key }));
    return { body: answer.Body as Readable, length: answer.ContentLength };
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw error;
  }
}

/** An object's bytes, or undefined when the bucket has no such key. */
export async function objectBytes(key: string): Promise<Buffer | undefined> {
  const { client, name } = bucket();
  try {
    const answer = await client.send(new GetObjectCommand({ Bucket: name, Key: key }));
    return Buffer.from(await answer.Body!.transformToByteArray());
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw error;
  }
}

/** Deletes objects; a key already gone is no error (S3 answers a delete of one as done). */
export async function deleteObjects(keys: readonly string[]): Promise<void> {
  const { client, name } = bucket();
  for (let at = 0; at < keys.length; at += 1000) {
    const answer = await client.send(
      new DeleteObjectsCommand({
        Bucket: name,
        Delete: { Objects: keys.slice(at, at + 1000).map((key) => ({ Key: key })), Quiet: true },
      }),
    );
    const failed = answer.Errors?.filter((error) => error.Code !== 'NoSuchKey') ?? [];
    if (failed.length > 0) throw new Error(`Could not delete ${failed[0]!.Key}: ${failed[0]!.Message}`);
  }
}

const isMissing = (error: unknown) =>
  error instanceof NoSuchKey ||
  (error instanceof S3ServiceException && error.$metadata.httpStatusCode === 404);
