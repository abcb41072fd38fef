/**
 * A stand-in for a Worker in Node: the "worker side" is an object exposed with comlink on the far end of a
 * MessageChannel, so a host talks to it exactly as to a real worker. It can crash (an `error` event, as a
 * top-level or uncaught throw fires), hang (messages stop arriving, as in a long synchronous stretch) and
 * records its termination.
 */
import * as Comlink from 'comlink';
import type { HostedWorker } from '../../../src/app/workers/worker-host.ts';

export class FakeWorker extends EventTarget implements HostedWorker {
  terminated = false;
  private hung = false;
  private readonly port: MessagePort;
  private readonly far: MessagePort;

  constructor(api: object) {
    super();
    const { port1, port2 } = new MessageChannel();
    this.port = port1;
    this.far = port2;
    Comlink.expose(api, port2);
    port1.addEventListener('message', (event) => {
      if (!this.terminated) this.dispatchEvent(new MessageEvent('message', { data: (event as MessageEvent).data }));
    });
    port1.start();
  }

  postMessage(message: unknown, transfer: Transferable[] = []): void {
    if (this.terminated || this.hung) return;
    this.port.postMessage(message, transfer as Parameters<MessagePort['postMessage']>[1]);
  }

  terminate(): void {
    if (this.terminated) return;
    this.terminated = true;
    this.port.close();
    this.far.close();
  }

  /** What a throw in the worker does: an `error` event carrying its message. */
  crash(message: string): void {
    this.dispatchEvent(Object.assign(new Event('error'), { message }));
  }

  /** Stops answering: nothing posted from now on reaches the worker side. */
  hang(): void {
    this.hung = true;
  }
}

/** Creates fake workers of one API and keeps them, newest last. */
export class FakeWorkers<Api extends object> {
  readonly made: FakeWorker[] = [];

  constructor(private readonly api: () => Api) {}

  readonly create = (): FakeWorker => {
    const worker = new FakeWorker(this.api());
    this.made.push(worker);
    return worker;
  };

  get last(): FakeWorker {
    const worker = this.made.at(-1);
    if (worker === undefined) throw new Error('no worker was created');
    return worker;
  }
}
