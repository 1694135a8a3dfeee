// Loaded with `--import` into the API process that scripts/bench-load.ts starts (the local
// server, `functions/local/server.ts`, pointed at a store in another process by
// DYNAMODB_ENDPOINT): it measures the API's own CPU and answers the bench over the IPC channel.
// Nothing of the API is changed; the probe only listens to Node's HTTP diagnostics channels.
//
// - `cpu`: this process's CPU time so far (process.cpuUsage), and per request label the CPU of
//   requests that ran alone (no other request of this process in flight from their start to their
//   answer), so one request's CPU is not confused with its neighbours'. The label is the
//   `x-bench-label` request header the bench sends.
import { subscribe } from 'node:diagnostics_channel';
import type { IncomingMessage, ServerResponse } from 'node:http';

interface Open {
  label: string;
  cpu: number;
  alone: boolean;
}

const open = new Map<ServerResponse, Open>();
let alone: Record<string, number[]> = {};
const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

subscribe('http.server.request.start', (m) => {
  const { request, response } = m as { request: IncomingMessage; response: ServerResponse };
  const label = request.headers['x-bench-label'];
  for (const o of open.values()) o.alone = false;
  open.set(response, { label: typeof label === 'string' ? label : '', cpu: cpuMs(), alone: open.size === 0 });
});

subscribe('http.server.response.finish', (m) => {
  const { response } = m as { response: ServerResponse };
  const o = open.get(response);
  if (!o) return;
  open.delete(response);
  if (o.alone && o.label) (alone[o.label] ??= []).push(cpuMs() - o.cpu);
});

process.on('message', (m: { type?: string }) => {
  if (m?.type !== 'cpu') return;
  process.send?.({ type: 'cpu', cpuMs: cpuMs(), alone });
  alone = {};
});
// The IPC channel must not keep the server alive once it is told to stop (SIGTERM).
process.channel?.unref();
