import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DockerfileParser, type Instruction } from 'dockerfile-ast';
import { ROOT } from './processes.js';

/** Where the images' Dockerfiles live, one per process, all built from the repository's root. */
export const DOCKER_DIR = join(ROOT, 'docker');

/** A `COPY --from=<stage>` of a final stage: paths in the stage copied from, and where they go. */
export interface StageCopy {
  from: string;
  sources: string[];
  destination: string;
}

export interface Stage {
  name?: string;
  image: string;
  /** The shell commands of its `RUN` instructions, in order, without their flags (`--mount`). */
  runs: string[];
  /** `COPY` and `RUN` in their order, for replaying the stage. */
  steps: ({ kind: 'run'; command: string } | { kind: 'copy'; copy: StageCopy; plain: boolean })[];
  environment: Record<string, string>;
  workdir?: string;
  user?: string;
  exposed: number[];
  /** The `HEALTHCHECK`'s command (exec form) and `CMD` (exec form), as argument lists. */
  healthcheck?: string[];
  command?: string[];
}

export interface ParsedDockerfile {
  file: string;
  text: string;
  stages: Stage[];
  /** The stage the image is made of: the last one. */
  final: Stage;
}

/** Every Dockerfile under docker/, by file name. */
export function dockerfiles(): ParsedDockerfile[] {
  return readdirSync(DOCKER_DIR)
    .filter((name) => name.endsWith('.Dockerfile'))
    .sort()
    .map((name) => parseDockerfile(join(DOCKER_DIR, name)));
}

export function parseDockerfile(file: string): ParsedDockerfile {
  const text = readFileSync(file, 'utf8');
  const stages: Stage[] = [];
  for (const instruction of DockerfileParser.parse(text).getInstructions()) {
    const keyword = instruction.getKeyword();
    const content = instruction.getArgumentsContent() ?? '';
    if (keyword === 'FROM') {
      const [image, as, name] = content.split(/\s+/);
      stages.push({
        image: image!,
        name: as?.toUpperCase() === 'AS' ? name : undefined,
        runs: [],
        steps: [],
        environment: {},
        exposed: [],
      });
      continue;
    }
    const stage = stages.at(-1);
    if (!stage) throw new Error(`${file}: ${keyword} before any FROM`);
    switch (keyword) {
      case 'RUN': {
        const command = withoutFlags(instruction, content);
        stage.runs.push(command);
        stage.steps.push({ kind: 'run', command });
        break;
      }
      case 'COPY': {
        const words = withoutFlags(instruction, content).split(/\s+/);
        const fromFlag = flagsOf(instruction).find((flag) => flag.startsWith('--from='));
        stage.steps.push({
          kind: 'copy',
          plain: fromFlag === undefined,
          copy: {
            from: fromFlag?.slice('--from='.length) ?? '.',
            sources: words.slice(0, -1),
            destination: words.at(-1)!,
          },
        });
        break;
      }
      case 'ENV':
        for (const [, key, value] of content.matchAll(/(\w+)=(\S+)/g)) stage.environment[key!] = value!;
        break;
      case 'WORKDIR':
        stage.workdir = content;
        break;
      case 'USER':
        stage.user = content;
        break;
      case 'EXPOSE':
        stage.exposed.push(...content.split(/\s+/).map((port) => Number.parseInt(port, 10)));
        break;
      case 'HEALTHCHECK':
        stage.healthcheck = JSON.parse(content.replace(/^CMD\s+/, '')) as string[];
        break;
      case 'CMD':
        stage.command = JSON.parse(content) as string[];
        break;
    }
  }
  return { file, text, stages, final: stages.at(-1)! };
}

function flagsOf(instruction: Instruction): string[] {
  const withFlags = instruction as Instruction & { getFlags?: () => { toString(): string }[] };
  return withFlags.getFlags?.().map((flag) => flag.toString()) ?? [];
}

/** The instruction's arguments without its leading `--flag=value` words. */
function withoutFlags(instruction: Instruction, content: string): string {
  let rest = content;
  for (const flag of flagsOf(instruction)) rest = rest.replace(flag, '');
  return rest.trim();
}

/** What each image runs: the ports it listens on, named by their settings. */
export const PROCESSES: Record<
  string,
  { operationsPort: string; publicPort?: string; nodeOptions?: string }
> = {
  'api.Dockerfile': {
    operationsPort: 'API_OPERATIONS_PORT',
    publicPort: 'PORT',
    nodeOptions: 'API_NODE_OPTIONS',
  },
  'workers.Dockerfile': { operationsPort: 'WORKERS_OPERATIONS_PORT', nodeOptions: 'WORKERS_NODE_OPTIONS' },
  'web-public.Dockerfile': { operationsPort: 'WEB_OPERATIONS_PORT', publicPort: 'WEB_PORT' },
};

/** Every setting declared in environment.ts (a property of `Environment`), by name. */
export function declaredSettings(): Set<string> {
  const source = readFileSync(join(ROOT, 'api/src/infrastructure/config/environment.ts'), 'utf8');
  const start = source.indexOf('export class Environment');
  const body = source.slice(start, source.indexOf('\n}\n', start));
  return new Set([...body.matchAll(/^ {2}([A-Z][A-Z0-9_]*)[?!]?[:\s=]/gm)].map((match) => match[1]!));
}
