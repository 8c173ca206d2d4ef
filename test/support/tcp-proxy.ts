import net from "node:net";

/**
 * A TCP proxy in front of a server on 127.0.0.1, for what a network does to a connection: pass
 * bytes through, hold the server's bytes back for a while (a slow link), or drop everything (a
 * peer behind a dead network, which neither closes nor answers).
 */
export interface TcpProxy {
  port: number;
  /** "pass" (the default), "blackhole", or a delay applied to every later byte from the server. */
  mode: "pass" | "blackhole" | { serverDelayMs: number };
  close(): Promise<void>;
}

export async function startTcpProxy(targetPort: number): Promise<TcpProxy> {
  const links = new Set<net.Socket>();
  const proxy: TcpProxy = {
    port: 0,
    mode: "pass",
    async close() {
      for (const link of links) link.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server = net.createServer((client) => {
    const upstream = net.connect(targetPort, "127.0.0.1");
    for (const socket of [client, upstream]) {
      links.add(socket);
      socket.on("error", () => undefined);
      socket.once("close", () => links.delete(socket));
    }
    const forward = (from: net.Socket, to: net.Socket, fromServer: boolean) => {
      from.on("data", (chunk: Buffer) => {
        const mode = proxy.mode;
        if (mode === "blackhole") return;
        if (fromServer && mode !== "pass") setTimeout(() => to.write(chunk), mode.serverDelayMs);
        else to.write(chunk);
      });
      from.once("close", () => to.destroy());
    };
    forward(client, upstream, false);
    forward(upstream, client, true);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  proxy.port = (server.address() as net.AddressInfo).port;
  return proxy;
}
