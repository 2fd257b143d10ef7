import type pg from 'pg';

/**
 * The session commands of a listening connection (outside/commit-notifications.ts). They are not
 * statements in statement.ts's sense: PostgreSQL cannot prepare LISTEN, NOTIFY or SET, and a
 * channel is an identifier, never a parameter. The channels are the service's own constants.
 */

/** Makes `client` listen on `channels`: one command each, after relaxing the durability of its own NOTIFYs. */
export async function listenOn(client: pg.ClientBase, channels: readonly string[]): Promise<void> {
  // Its NOTIFYs are pokes that carry nothing: no need to wait for them to be durable.
  await client.query('set synchronous_commit = off');
  for (const channel of channels) await client.query(`LISTEN ${channel}`);
}

/** Sends an empty poke ('new') on `channel`, to every listening process, this one included. */
export async function notifyChannel(client: pg.ClientBase, channel: string): Promise<void> {
  await client.query(`NOTIFY ${channel}, 'new'`);
}
