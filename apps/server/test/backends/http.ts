import { spawn } from 'node:child_process';
import http from 'node:http';

export interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/**
 * A GET to 127.0.0.1:port with a chosen Host header, as a browser for that host would send it. A
 * connection reset ("socket hang up") is asked again, up to three times: right after a reload an
 * old nginx worker may still take a connection and close it on its way out, which says nothing of
 * the new configuration's answer.
 */
export async function get(port: number, host: string, pathname = '/'): Promise<Answer> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await getOnce(port, host, pathname);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (attempt >= 3 || (code !== 'ECONNRESET' && code !== 'EPIPE')) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

function getOnce(port: number, host: string, pathname: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path: pathname, headers: { host }, timeout: 5000 }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    req.end();
  });
}

/** Runs a program (argument array, no shell) and collects its output; `env` replaces the environment. */
export function exec(
  program: string,
  args: string[],
  input?: string,
  env?: NodeJS.ProcessEnv,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, { stdio: ['pipe', 'pipe', 'pipe'], ...(env ? { env } : {}) });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? 1, stdout, stderr }));
    // A program that exits before reading its stdin (curl, s_client) must not fail the suite with EPIPE.
    child.stdin.on('error', () => {});
    child.stdin.end(input ?? '');
  });
}
