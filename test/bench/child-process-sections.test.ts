import { smokeTestSections } from './smoke.js';

smokeTestSections('child-process');
