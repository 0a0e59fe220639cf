// @vitest-environment jsdom
import { describeModuleLevelClient } from '../../test-support/frontend/module-level-client.js';

describeModuleLevelClient('jsdom');
