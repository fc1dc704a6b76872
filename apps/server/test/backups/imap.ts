import net from 'node:net';

/** What Dovecot answered to one command: the untagged lines before its tagged one, and that line's status. */
export interface ImapAnswer {
  status: 'OK' | 'NO' | 'BAD';
  text: string;
}

const quote = (s: string) => `"${s.replace(/[\\"]/g, (c) => `\\${c}`)}"`;

/**
 * Signs in over IMAP on a fresh connection, as a mail client would, and sends each command in turn
 * (tagged c1, c2…), each after the previous one's tagged answer; answers each command's text.
 */
export function imapSession(port: number, user: string, password: string, commands: string[]): Promise<ImapAnswer[]> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const all = [`LOGIN ${quote(user)} ${quote(password)}`, ...commands];
    const answers: ImapAnswer[] = [];
    let buffer = '';
    let sent = -1;
    const timer = setTimeout(() => socket.destroy(new Error(`IMAP timeout after ${answers.length} answers:\n${buffer}`)), 15_000);
    const next = () => {
      sent++;
      if (sent === all.length) {
        clearTimeout(timer);
        socket.end('z LOGOUT\r\n');
        resolve(answers.slice(1));
        return;
      }
      socket.write(`c${sent} ${all[sent]}\r\n`);
    };
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      if (sent === -1) {
        if (!buffer.includes('\r\n')) return;
        buffer = '';
        return next();
      }
      const done = new RegExp(`^c${sent} (OK|NO|BAD)[^\\r]*\\r\\n`, 'm').exec(buffer);
      if (!done) return;
      answers.push({ status: done[1] as ImapAnswer['status'], text: buffer.slice(0, done.index) });
      if (sent === 0 && done[1] !== 'OK') {
        clearTimeout(timer);
        socket.destroy();
        reject(new Error(`IMAP login refused: ${buffer}`));
        return;
      }
      buffer = buffer.slice(done.index + done[0].length);
      next();
    });
    socket.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}

/** The folder names a LIST answer names (quoted or atoms). */
export const listedFolders = (answer: ImapAnswer) =>
  [...answer.text.matchAll(/^\* (?:LIST|LSUB) \([^)]*\) (?:"[^"]*"|NIL) (?:"((?:[^"\\]|\\.)*)"|(\S+))\r$/gm)].map((m) =>
    m[1] !== undefined ? m[1].replace(/\\(.)/g, '$1') : m[2]!,
  );

/** The bytes of the first literal in a FETCH answer (`BODY[] {n}` and then n bytes). */
export function fetchedLiteral(answer: ImapAnswer): Buffer {
  const head = /\{(\d+)\}\r\n/.exec(answer.text);
  if (!head) throw new Error(`no literal in the answer: ${answer.text}`);
  const from = head.index + head[0].length;
  return Buffer.from(answer.text.slice(from, from + Number(head[1])), 'latin1');
}
