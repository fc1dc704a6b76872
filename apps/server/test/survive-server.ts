/**
 * The server as `npm start` runs it, beside a UDP socket whose listener throws on every datagram
 * (and leaves a rejected promise nobody catches on "reject"): what a reply from outside the panel
 * that some code failed to expect does. survive.test.ts starts it.
 */
import { createSocket } from 'node:dgram';
import { runServer } from '../src/server.ts';

runServer();

const socket = createSocket('udp4');
socket.on('message', (message) => {
  if (String(message) === 'reject') void Promise.reject(new Error('a promise nobody waited for'));
  else throw new Error('a reply nobody expected');
});
socket.bind(0, '127.0.0.1', () => console.log(`throwing socket on ${socket.address().port}`));
