// placeholder, written below
int main() { return 0; }
