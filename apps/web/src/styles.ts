// The order of Mantine's files matters and lives in styles.css, where the bundler keeps it.
import './styles.css';
