/** Messages for the person at the keyboard: errors that name the file and line, and short confirmations. */

export interface Notice {
  id: number;
  kind: 'error' | 'info';
  message: string;
}

export class Notices {
  list = $state<Notice[]>([]);
  #nextId = 1;

  error(error: unknown): void {
    this.push('error', error instanceof Error ? error.message : String(error));
  }

  info(message: string): void {
    this.push('info', message);
    const id = this.#nextId - 1;
    setTimeout(() => this.dismiss(id), 5000);
  }

  dismiss(id: number): void {
    const index = this.list.findIndex((n) => n.id === id);
    if (index >= 0) this.list.splice(index, 1);
  }

  private push(kind: Notice['kind'], message: string): void {
    this.list.push({ id: this.#nextId++, kind, message });
  }
}

export const notices = new Notices();
