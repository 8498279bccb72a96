/**
 * Close codes of both sockets: 1001 the server is going away (reconnect at once), 4401 not logged in,
 * 4403 forbidden. A module of its own, without schemas: the browser's socket needs the codes from
 * the start and the frames' schemas only once a socket is open.
 */
export const liveCloseCodes = { goingAway: 1001, unauthenticated: 4401, forbidden: 4403 } as const;
