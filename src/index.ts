// `npm start`: the bot on the Discord gateway.
import './runtime/check-node.js';

// Loaded once the Node.js version is known to be supported (src/runtime/check-node.ts).
await import('./main/gateway.js');
