import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';

/** The Nu HTML Checker's jar (npm `vnu-jar`), run on the machine's Java (17 or later). */
const VNU_JAR = String(createRequire(import.meta.url)('vnu-jar'));

export interface HtmlMessage {
  type: string;
  subType?: string;
  message: string;
  extract?: string;
  lastLine?: number;
}

/**
 * What the Nu HTML Checker finds wrong in a document (`java -jar vnu.jar --format json -`): its
 * errors (fatal ones included), warnings left out. Spawned, not run in this process's thread, so a
 * site server running in the test keeps answering meanwhile.
 */
export function htmlErrors(html: string): Promise<HtmlMessage[]> {
  return new Promise((resolve, reject) => {
    const checker = spawn('java', ['-jar', VNU_JAR, '--format', 'json', '--stdout', '-'], {
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    let output = '';
    checker.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
    });
    checker.on('error', reject);
    checker.on('close', () => {
      try {
        const { messages } = JSON.parse(output) as { messages: HtmlMessage[] };
        resolve(
          messages
            .filter((message) => message.type === 'error' || message.subType === 'fatal')
            .map(({ type, subType, message, extract, lastLine }) => ({
              type,
              subType,
              message,
              extract,
              lastLine,
            })),
        );
      } catch (error) {
        reject(new Error(`the HTML checker answered no JSON (${(error as Error).message}): ${output}`));
      }
    });
    checker.stdin.end(html);
  });
}
