// `npm run start:http`: the bot as an HTTP interactions endpoint.
import './runtime/check-node.js';

// Loaded once the Node.js version is known to be supported (src/runtime/check-node.ts).
await import('./main/http.js');
