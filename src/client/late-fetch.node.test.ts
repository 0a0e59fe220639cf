// @vitest-environment node
import { describeModuleLevelClient } from './test-support/module-level-client.js';

describeModuleLevelClient('node');
