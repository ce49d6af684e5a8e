// `npm run register`: the slash commands registered with Discord.
import './runtime/check-node.js';

// Loaded once the Node.js version is known to be supported (src/runtime/check-node.ts).
await import('./main/register.js');
