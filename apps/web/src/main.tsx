import { createRoot } from 'react-dom/client';
import { App } from './app/app.tsx';
import { AppProvider } from './app/provider.tsx';
import './styles/index.css';

createRoot(document.getElementById('root')!).render(
  <AppProvider>
    <App />
  </AppProvider>,
);
