// @vitest-environment jsdom
import { describeTestIsolation } from '../../test-support/frontend/test-isolation.js';

describeTestIsolation('jsdom');
