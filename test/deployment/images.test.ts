import { existsSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { validateEnvironment } from '@offers/api/platform';
import { validate } from 'dockerfile-utils';
import { CORE_SCHEMA, load, mergeTag } from 'js-yaml';
import * as nodeOptions from '../../api/scripts/node-options.mjs';
import { DOCKER_DIR, declaredSettings, dockerfiles, PROCESSES } from '../support/dockerfiles.js';
import { ROOT } from '../support/processes.js';

/** Each setting's default, as a string as it would be set. */
const DEFAULTS: Record<string, string | undefined> = Object.fromEntries(
  Object.entries(validateEnvironment({})).map(([name, value]) => [
    name,
    value === undefined ? undefined : String(value),
  ]),
);

interface ComposeService {
  image?: string;
  build?: { context: string; dockerfile: string };
  command?: string[];
  environment?: Record<string, string>;
  ports?: string[];
  volumes?: string[];
  healthcheck?: { test: string[] };
  depends_on?: Record<string, { condition: string }> | string[];
}

/** Compose files share settings through YAML merge keys (`<<: *app-env`). */
const readCompose = (file: string) =>
  load(readFileSync(join(ROOT, file), 'utf8'), { schema: CORE_SCHEMA.withTags(mergeTag) }) as {
    services: Record<string, ComposeService>;
  };

const production = readCompose('compose.production.yml');

/** The services run from our images, with the Dockerfile each is built from. */
const ourServices = Object.entries(production.services).filter(([, service]) => service.build);

/** The port of an `http://host:port/...` address in a health check command. */
const healthPort = (command: string[]) => {
  const match = command
    .join(' ')
    .match(/http:\/\/127\.0\.0\.1:(?:\$\{process\.env\.(\w+) \|\| )?(\d+)\}?\/health\/live/);
  if (!match) throw new Error(`no /health/live address in ${command.join(' ')}`);
  return { setting: match[1], port: match[2]! };
};

describe('the images', () => {
  const files = dockerfiles();

  it('has a Dockerfile for the API, the workers and the site server', () => {
    expect(files.map((file) => basename(file.file))).toEqual(Object.keys(PROCESSES).sort());
  });

  it('passes the Dockerfile linter with no problem, which does find them', () => {
    for (const file of files)
      expect({ file: file.file, problems: validate(file.text) }).toEqual({ file: file.file, problems: [] });
    // The linter at work: an unknown instruction and a port that is no number.
    const broken = validate('FROM node:24-bookworm-slim\nEXPOSE port\nRUNN true\n');
    expect(broken.length).toBeGreaterThanOrEqual(2);
  });

  it('runs the same build and the same production install in every image', () => {
    const [first, ...others] = files;
    for (const file of [first!, ...others]) {
      const [build, final] = file.stages;
      expect(file.stages).toHaveLength(2);
      expect(build!.name).toBe('build');
      expect(build!.runs).toEqual(first!.stages[0]!.runs);
      expect(build!.runs).toEqual(['sh docker/production-layout.sh build']);
      expect(final!.runs).toEqual(['sh docker/production-layout.sh install']);
      // Everything the install reads comes before it; the built output after (a code change
      // leaves the installed layer as it was).
      const install = final!.steps.findIndex((step) => step.kind === 'run');
      const packageFiles = final!.steps
        .slice(0, install)
        .flatMap((step) => (step.kind === 'copy' ? step.copy.sources : []));
      expect(packageFiles).toEqual(
        expect.arrayContaining([
          '/app/package.json',
          '/app/package-lock.json',
          ...['api', 'workers', 'web-public', 'web-backoffice', 'test'].map(
            (name) => `/app/${name}/package.json`,
          ),
        ]),
      );
      expect(final!.steps.slice(install + 1).every((step) => step.kind === 'copy' && !step.plain)).toBe(true);
    }
  });

  it('runs each process as node, in production, from the slim image, with a health check on its operations port', () => {
    for (const file of files) {
      const role = PROCESSES[basename(file.file)]!;
      const { final } = file;
      expect(final.image).toBe('node:24-bookworm-slim');
      expect(final.user).toBe('node');
      expect(final.environment.NODE_ENV).toBe('production');
      expect(final.workdir).toBe('/app');
      expect(final.command?.[0]).toBe('node');
      if (role.nodeOptions) {
        const options = (nodeOptions as Record<string, readonly string[]>)[role.nodeOptions]!;
        expect(final.command!.slice(1, 1 + options.length)).toEqual(options);
      }
      expect(final.healthcheck?.slice(0, 2)).toEqual(['node', '-e']);
      const health = healthPort(final.healthcheck!);
      expect(health).toEqual({ setting: role.operationsPort, port: DEFAULTS[role.operationsPort] });
      const ports = [role.operationsPort, role.publicPort].flatMap((name) =>
        name ? [Number(DEFAULTS[name])] : [],
      );
      expect([...final.exposed].sort()).toEqual(ports.sort());
    }
  });

  it('keeps the installed and built files and local secrets out of the build context', () => {
    const ignored = readFileSync(join(ROOT, '.dockerignore'), 'utf8');
    for (const pattern of ['**/node_modules', '**/dist', '.env', '.git'])
      expect(ignored).toMatch(new RegExp(`^${pattern.replace(/\*/g, '\\*').replace(/\./g, '\\.')}$`, 'm'));
  });
});

describe('the production compose file', () => {
  it('starts the API, the workers and the site from our images after the migrations one-off', () => {
    const byDockerfile = Object.fromEntries(
      ourServices.map(([name, service]) => [name, basename(service.build!.dockerfile)]),
    );
    expect(byDockerfile).toEqual({
      migrate: 'api.Dockerfile',
      api: 'api.Dockerfile',
      workers: 'workers.Dockerfile',
      'web-public': 'web-public.Dockerfile',
    });
    expect(production.services.migrate!.command).toEqual([
      'node',
      'api/dist/src/infrastructure/database/cli/migrate.js',
    ]);
    for (const name of ['api', 'workers']) {
      expect(production.services[name]!.depends_on).toMatchObject({
        migrate: { condition: 'service_completed_successfully' },
        pgbouncer: { condition: 'service_healthy' },
        redis: { condition: 'service_healthy' },
      });
    }
    for (const name of [
      'postgres',
      'pgbouncer',
      'redis',
      'minio',
      'minio-bucket',
      'mailpit',
      'prometheus',
      'grafana',
    ]) {
      expect(production.services).toHaveProperty([name]);
    }
  });

  it('builds from Dockerfiles that exist', () => {
    for (const [, service] of ourServices) {
      const context = join(ROOT, service.build!.context);
      expect(existsSync(join(context, service.build!.dockerfile))).toBe(true);
      expect(join(context, service.build!.dockerfile).startsWith(DOCKER_DIR)).toBe(true);
    }
  });

  it('sets what production requires, and only settings the processes declare', () => {
    for (const [name, service] of ourServices) {
      expect({ name, environment: service.environment }).toMatchObject({
        name,
        environment: {
          NODE_ENV: 'production',
          SESSION_SECRET: expect.stringContaining('SESSION_SECRET'),
          SMTP_URL: expect.any(String),
          DATABASE_URL: expect.stringMatching(name === 'migrate' ? /@postgres:5432\// : /@pgbouncer:5432\//),
          DATABASE_DIRECT_URL: expect.stringMatching(/@postgres:5432\//),
          REDIS_URL: 'redis://redis:6379',
          MEDIA_STORE: 's3',
        },
      });
    }
    const declared = declaredSettings();
    const settings = ourServices.flatMap(([, service]) => Object.keys(service.environment ?? {}));
    expect(settings.filter((name) => !declared.has(name))).toEqual([]);
  });

  it('publishes the ports the processes listen on, and checks health on their operations ports', () => {
    for (const [name, service] of ourServices) {
      if (name === 'migrate') continue;
      const role = PROCESSES[basename(service.build!.dockerfile)]!;
      const setting = (key: string) => service.environment?.[key] ?? DEFAULTS[key];
      const published = (service.ports ?? []).map((port) => port.split(':').at(-1));
      expect({ name, published }).toEqual({
        name,
        published: role.publicPort ? [setting(role.publicPort)] : [],
      });
      expect({ name, health: healthPort(service.healthcheck!.test).port }).toEqual({
        name,
        health: setting(role.operationsPort),
      });
    }
  });

  it('mounts files that exist, in both compose files', () => {
    for (const file of ['compose.production.yml', 'docker-compose.yml']) {
      for (const service of Object.values(readCompose(file).services)) {
        for (const volume of service.volumes ?? []) {
          const source = volume.split(':')[0]!;
          if (source.startsWith('./'))
            expect({ file, source, exists: existsSync(join(ROOT, source)) }).toMatchObject({ exists: true });
        }
      }
    }
  });

  it('scrapes the operations ports of the processes Prometheus knows, under the service names', () => {
    const scrape = load(readFileSync(join(ROOT, 'monitoring/prometheus/prometheus.yml'), 'utf8')) as {
      scrape_configs: { static_configs: { targets: string[] }[] }[];
    };
    const targets = scrape.scrape_configs.flatMap((job) =>
      job.static_configs.flatMap((config) => config.targets),
    );
    for (const target of targets) {
      const [name, port] = target.split(':');
      const service = production.services[name!];
      expect({ target, service: service !== undefined }).toEqual({ target, service: true });
      const role = PROCESSES[basename(service!.build!.dockerfile)]!;
      expect(port).toBe(service!.environment?.[role.operationsPort] ?? DEFAULTS[role.operationsPort]);
    }
  });
});
