// src/main.tsx
import { createRoot } from 'react-dom/client';
import { Orders } from './orders';

if (import.meta.env.DEV) await (await import('./mocks')).startMocks();
createRoot(document.getElementById('root') as HTMLElement).render(<Orders />);
