/* The reference for the FastCGI benchmark: libfcgi in C at its plainest. THREADS threads, one FCGX_Request
 * each, all accepting on one socket, each answering a fixed body read from BODY_FILE. */
#include <fcgiapp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int listen_socket;
static char *response;
static int response_length;

static void *serve(void *unused) {
    FCGX_Request request;
    (void)unused;
    FCGX_InitRequest(&request, listen_socket, 0);
    while (FCGX_Accept_r(&request) >= 0) {
        FCGX_PutStr(response, response_length, request.out);
        FCGX_Finish_r(&request);
    }
    return NULL;
}

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: hello SOCKET_PATH BODY_FILE THREADS\n");
        return 2;
    }
    FILE *file = fopen(argv[2], "rb");
    if (!file) { perror(argv[2]); return 1; }
    char body[65536];
    size_t body_length = fread(body, 1, sizeof body, file);
    fclose(file);
    response = malloc(body_length + 256);
    response_length = snprintf(response, 256, "Status: 200 OK\r\nContent-Type: application/json\r\nContent-Length: %zu\r\n\r\n", body_length);
    memcpy(response + response_length, body, body_length);
    response_length += (int)body_length;

    FCGX_Init();
    listen_socket = FCGX_OpenSocket(argv[1], 1024);
    if (listen_socket < 0) { fprintf(stderr, "cannot listen on %s\n", argv[1]); return 1; }
    chmod(argv[1], 0666);
    int threads = atoi(argv[3]);
    pthread_t ids[threads];
    for (int i = 0; i < threads; i++) pthread_create(&ids[i], NULL, serve, NULL);
    for (int i = 0; i < threads; i++) pthread_join(ids[i], NULL);
    return 0;
}
