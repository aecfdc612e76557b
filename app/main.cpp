// Placeholder entry point until the CLI lands.
int main() { return 0; }
