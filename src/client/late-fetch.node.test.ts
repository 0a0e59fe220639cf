// @vitest-environment node
import { describeModuleLevelClient } from '../../test-support/frontend/module-level-client.js';

describeModuleLevelClient('node');
