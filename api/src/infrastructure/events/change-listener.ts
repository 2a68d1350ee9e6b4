import type { Logger } from '@nestjs/common';
import pg from 'pg';

type Warn = Pick<Logger, 'warn'>;

interface Subscriber {
  channels: ReadonlySet<string>;
  /** Runs on a notification of its channels, and when the connection starts or is lost. */
  onChange: () => void;
  /** Set once its channels are listened to; cleared while the connection is down. */
  setListening: (listening: boolean) => void;
  logger: Warn;
  whileDown: string;
}

/**
 * The process's one LISTEN connection to a database: a single pg client listening on the union
 * of its subscribers' channels, each notification handed to the subscribers of its channel. A
 * LISTEN needs a session of its own for as long as it lasts (a transaction pooler cannot give one),
 * so every cache and listener of a process sharing it keeps the process at one such connection
 * whatever it subscribes to. Kept open across losses (a new connection a second later); it closes
 * when its last subscriber leaves.
 */
class ChangeHub {
  private readonly subscribers = new Set<Subscriber>();
  /** Channels the current connection listens to. */
  private readonly listened = new Set<string>();
  private client?: pg.Client;
  private connected = false;
  private retry?: NodeJS.Timeout;
  /** LISTEN statements for channels added while connected, one after the other. */
  private adding: Promise<void> = Promise.resolve();

  constructor(
    private readonly databaseUrl: string,
    private readonly onEmpty: () => void,
  ) {}

  subscribe(subscriber: Subscriber): void {
    this.subscribers.add(subscriber);
    if (!this.client) void this.listen();
    else if (this.connected) this.catchUp(subscriber);
  }

  /** Listens to a subscriber's channels the connection does not listen to yet, then tells it. */
  private catchUp(subscriber: Subscriber): void {
    const client = this.client;
    const missing = [...subscriber.channels].filter((channel) => !this.listened.has(channel));
    this.adding = this.adding.then(async () => {
      try {
        if (missing.length > 0) await client!.query(missing.map((channel) => `LISTEN ${channel}`).join('; '));
        for (const channel of missing) this.listened.add(channel);
      } catch {
        // The connection's loss (its error event) reconnects and tells every subscriber.
        return;
      }
      if (this.client !== client || !this.connected || !this.subscribers.has(subscriber)) return;
      subscriber.onChange();
      subscriber.setListening(true);
    });
  }

  async unsubscribe(subscriber: Subscriber): Promise<void> {
    subscriber.setListening(false);
    if (!this.subscribers.delete(subscriber) || this.subscribers.size > 0) return;
    this.onEmpty();
    clearTimeout(this.retry);
    const client = this.client;
    this.client = undefined;
    this.connected = false;
    await client?.end().catch(() => undefined);
  }

  private async listen(): Promise<void> {
    if (this.subscribers.size === 0) return;
    const client = new pg.Client({
      connectionString: this.databaseUrl,
      application_name: `${process.env.SERVICE_NAME ?? 'offers'}-changes`,
    });
    let lost = false;
    const reconnect = () => {
      if (this.client !== client || lost) return;
      lost = true;
      this.connected = false;
      this.listened.clear();
      for (const subscriber of this.subscribers) {
        subscriber.setListening(false);
        subscriber.onChange();
      }
      client.removeAllListeners();
      client.end().catch(() => undefined);
      this.retry = setTimeout(() => {
        if (this.client !== client) return;
        this.client = undefined;
        void this.listen();
      }, 1000);
    };
    client.on('error', reconnect);
    client.on('notification', ({ channel }) => {
      for (const subscriber of this.subscribers) if (subscriber.channels.has(channel)) subscriber.onChange();
    });
    // Known before connecting, so a shutdown meanwhile ends this client too.
    this.client = client;
    const channels = new Set([...this.subscribers].flatMap((subscriber) => [...subscriber.channels]));
    try {
      await client.connect();
      await client.query([...channels].map((channel) => `LISTEN ${channel}`).join('; '));
    } catch (error) {
      if (this.client !== client) return;
      for (const subscriber of this.subscribers) {
        subscriber.logger.warn(
          `LISTEN ${[...subscriber.channels].join(', ')}: ${(error as Error).message}; ${subscriber.whileDown}`,
        );
      }
      reconnect();
      return;
    }
    if (this.client !== client) return;
    this.connected = true;
    for (const channel of channels) this.listened.add(channel);
    for (const subscriber of [...this.subscribers]) {
      // One that subscribed while connecting may name channels not listened to yet.
      if ([...subscriber.channels].every((channel) => channels.has(channel))) {
        subscriber.onChange();
        subscriber.setListening(true);
      } else {
        this.catchUp(subscriber);
      }
    }
  }
}

/** The process's hubs, one per database address (a process normally has one). */
const hubs = new Map<string, ChangeHub>();

function hubFor(databaseUrl: string): ChangeHub {
  let hub = hubs.get(databaseUrl);
  if (!hub) {
    const created = new ChangeHub(databaseUrl, () => {
      if (hubs.get(databaseUrl) === created) hubs.delete(databaseUrl);
    });
    hub = created;
    hubs.set(databaseUrl, hub);
  }
  return hub;
}

/**
 * Notifications on some channels of PostgreSQL (LISTEN), through the process's one LISTEN
 * connection to that database (shared by every listener of the process; see ChangeHub). `onChange`
 * runs on every notification of its channels and also whenever the connection starts or is lost,
 * since changes may have gone unnoticed meanwhile; `listening` is false while it is down, so what
 * relies on it (a per-process cache of ready answers) keeps nothing then. The one LISTEN loop of
 * the product: the ready-answer caches and the mail sender use it. `databaseUrl` must reach
 * PostgreSQL itself, not a transaction pooler (DATABASE_DIRECT_URL).
 */
export class ChangeListener {
  listening = false;
  private readonly subscriber: Subscriber;
  private hub?: ChangeHub;

  constructor(
    private readonly databaseUrl: string,
    channels: readonly string[],
    onChange: () => void,
    logger: Warn,
    /** What the loss of the connection means, for the warning. */
    whileDown = 'ready answers off until PostgreSQL notifications return',
  ) {
    this.subscriber = {
      // Unquoted names, as LISTEN folds them and notifications name them.
      channels: new Set(channels.map((channel) => channel.toLowerCase())),
      onChange,
      setListening: (listening) => {
        this.listening = listening;
      },
      logger,
      whileDown,
    };
  }

  start(): void {
    if (this.hub) return;
    this.hub = hubFor(this.databaseUrl);
    this.hub.subscribe(this.subscriber);
  }

  async stop(): Promise<void> {
    const hub = this.hub;
    this.hub = undefined;
    this.listening = false;
    await hub?.unsubscribe(this.subscriber);
  }
}
