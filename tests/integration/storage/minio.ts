/**
 * A real S3 for the S3 store's contract (s3-store.test.ts), beside s3rver,
 * which always runs: S3_TEST_ENDPOINT (with S3_TEST_ACCESS_KEY_ID /
 * S3_TEST_SECRET_ACCESS_KEY) when set, else MinIO in a testcontainers
 * container when a Docker engine answers, else a reason to skip that run.
 */
export type S3Endpoint =
  | {
      ok: true;
      endpoint: string;
      accessKeyId: string;
      secretAccessKey: string;
      source: string;
      stop(): Promise<void>;
    }
  | { ok: false; reason: string };

// Test processes choose their servers from the environment on purpose (as tests/support/servers.ts does).
const env = process.env;
const MINIO_IMAGE = 'minio/minio:RELEASE.2025-04-22T22-12-26Z';

export async function s3ForTests(): Promise<S3Endpoint> {
  if (env.S3_TEST_ENDPOINT)
    return {
      ok: true,
      endpoint: env.S3_TEST_ENDPOINT,
      accessKeyId: env.S3_TEST_ACCESS_KEY_ID ?? 'minioadmin',
      secretAccessKey: env.S3_TEST_SECRET_ACCESS_KEY ?? 'minioadmin',
      source: 'S3_TEST_ENDPOINT',
      stop: async () => {},
    };
  try {
    const { GenericContainer, Wait, getContainerRuntimeClient } = await import('testcontainers');
    // Fails within milliseconds without a Docker engine ("Could not find a working container runtime strategy").
    await getContainerRuntimeClient();
    const container = await new GenericContainer(MINIO_IMAGE)
      .withCommand(['server', '/data'])
      .withEnvironment({ MINIO_ROOT_USER: 'portaltest', MINIO_ROOT_PASSWORD: 'portaltest-secret' })
      .withExposedPorts(9000)
      .withWaitStrategy(Wait.forHttp('/minio/health/ready', 9000))
      .start();
    return {
      ok: true,
      endpoint: `http://${container.getHost()}:${container.getMappedPort(9000)}`,
      accessKeyId: 'portaltest',
      secretAccessKey: 'portaltest-secret',
      source: `testcontainers ${MINIO_IMAGE}`,
      stop: async () => {
        await container.stop();
      },
    };
  } catch (error) {
    const why = error instanceof Error ? error.message.split('\n')[0] : String(error);
    return {
      ok: false,
      reason: `no S3 to test against: S3_TEST_ENDPOINT is unset and MinIO could not be started (${why})`,
    };
  }
}
