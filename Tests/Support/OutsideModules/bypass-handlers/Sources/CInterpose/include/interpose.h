long interposed_bytes(void);
