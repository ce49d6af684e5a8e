// `npm run cli`: a command answered at the terminal.
import './runtime/check-node.js';

// Loaded once the Node.js version is known to be supported (src/runtime/check-node.ts).
await import('./main/cli.js');
