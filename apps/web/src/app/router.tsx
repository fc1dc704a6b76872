import { createBrowserRouter } from 'react-router';
import { Home } from './Home.tsx';

export const router = createBrowserRouter([{ path: '*', element: <Home /> }]);
